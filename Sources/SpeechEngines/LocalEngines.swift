import Speech

/// The speech engines that run on this machine without an account or network.
public enum LocalEngines {
    /// espeak-ng, flite and festival, each found on `PATH` when used (missing ones report
    /// themselves as not installed rather than failing).
    public static func all(locator: ExecutableLocator = ExecutableLocator()) -> [any SpeechSynthesizer] {
        [FestivalEngine(locator: locator), FliteEngine(locator: locator), EspeakEngine(locator: locator)]
    }
}
