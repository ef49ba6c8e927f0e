import ProcessWorkers
import Speech

/// The speech engines that run on this machine without an account or network.
public enum LocalEngines {
    /// Piper, hibari and Kokoro (from the project's `.venv`), festival, flite and espeak-ng. The command-line
    /// engines are found on `PATH` when used; any engine that is missing reports itself as not
    /// installed (with a hint) and offers no voices, rather than failing.
    public static func all(
        locator: ExecutableLocator = ExecutableLocator(),
        piper: PiperEngine.Configuration? = PiperEngine.Configuration.locate(),
        kokoro: KokoroEngine.Configuration? = KokoroEngine.Configuration.locate(),
        hibari: HibariEngine.Configuration? = HibariEngine.Configuration.locate()
    ) -> [any SpeechSynthesizer] {
        [PiperEngine(configuration: piper), HibariEngine(configuration: hibari), KokoroEngine(configuration: kokoro), FestivalEngine(locator: locator), FliteEngine(locator: locator), EspeakEngine(locator: locator)]
    }
}
