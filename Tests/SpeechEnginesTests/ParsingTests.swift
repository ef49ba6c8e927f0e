import Foundation
import ProcessWorkers
import Speech
@testable import SpeechEngines
import StoryModel
import Testing

@Suite struct EspeakListingTests {
    let listing = """
        Pty Language       Age/Gender VoiceName          File                 Other Languages
         2  en-gb           --/M      English_(Great_Britain) gmw/en               (en 2)
         3  en-uk           --/M      english-mb-en1     mb/mb-en1            (en-gb 3)(en 2)
         5  en-gb-scotland  --/M      English_(Scotland) gmw/en-GB-scotland   (en 4)
         5  variant         --/M      Mr_Serious         !v/Mr serious
         5  variant         70/F      female1            !v/f1
         5  variant         --/M      Storm              !v/Storm             (en-us 5)
        """

    @Test func parsesRowsWithSpacesInFileNamesAndOtherLanguages() {
        let voices = EspeakListing.parse(listing)
        #expect(voices.count == 6)
        #expect(voices[0] == EspeakListedVoice(language: "en-gb", age: nil, gender: .male, name: "English_(Great_Britain)", file: "gmw/en"))
        #expect(voices[1].isMBROLA)
        #expect(voices[3].file == "!v/Mr serious" && voices[3].isVariant)
        #expect(voices[4].gender == .female && voices[4].age == 70 && voices[4].variantName == "f1")
        #expect(voices[5].file == "!v/Storm")
    }

    @Test func readsVersionDataDirectoryAndVariantPitch() {
        let output = "eSpeak NG text-to-speech: 1.51  Data at: /usr/lib/x86_64-linux-gnu/espeak-ng-data\n"
        #expect(EspeakListing.version(fromVersionOutput: output) == "1.51")
        #expect(EspeakListing.dataDirectory(fromVersionOutput: output) == "/usr/lib/x86_64-linux-gnu/espeak-ng-data")
        #expect(EspeakListing.variantPitchHz(fileContents: "name female1\ngender female 70\npitch 140 200\n") == 170)
        #expect(EspeakListing.variantPitchHz(fileContents: "name male5\n") == 100)
    }

    @Test func accentTagsUseRegionCase() {
        #expect(EspeakListing.accentTag(forLanguage: "en-gb-scotland") == "en-GB-scotland")
        #expect(EspeakListing.accentTag(forLanguage: "en-us") == "en-US")
        #expect(EspeakListing.accentTag(forLanguage: "en-029") == "en-029")
    }

    @Test func pitchScaleIsMonotonicAndCentredOn50() {
        #expect(EspeakPitchScale.value(forSemitones: 0) == 50)
        #expect(EspeakPitchScale.value(forSemitones: 20) == 99)
        #expect(EspeakPitchScale.value(forSemitones: -20) == 20)
        let values = stride(from: -5.0, through: 9, by: 0.5).map(EspeakPitchScale.value(forSemitones:))
        #expect(values == values.sorted())
    }

    @Test func rateIsClampedToWhatEspeakAccepts() {
        #expect(EspeakEngine.wordsPerMinute(rate: 1) == 175)
        #expect(EspeakEngine.wordsPerMinute(rate: 1.5) == 263)
        #expect(EspeakEngine.wordsPerMinute(rate: 0.1) == 80)
    }
}

@Suite struct EngineOutputParsingTests {
    @Test func parsesVersions() {
        #expect(FliteEngine.version(fromVersionOutput: "  Carnegie Mellon University\n  version: flite-2.2-current Sep 2018 (http://cmuflite.org)") == "2.2-current")
        #expect(FestivalEngine.version(fromVersionOutput: "festival: Festival Speech Synthesis System: 2.5.0:release December 2017") == "2.5.0")
    }

    @Test func foldsTypographyToASCIIForOlderEngines() {
        #expect(EngineText.ascii("“It’s the café—again…”") == "\"It's the cafe, again...\"")
        #expect(EngineText.ascii("plain -text") == "plain -text")
    }

    @Test func resamplingKeepsToneAndScalesLength() {
        let rate = 16000.0
        let tone = (0..<16000).map { Int16(10000 * sin(2 * Double.pi * 440 * Double($0) / rate)) }
        let shifted = AudioAdjustments.resample(tone, from: rate * 1.25, to: rate)
        #expect(abs(shifted.count - 12800) <= 1)
        // Zero crossings per second go up by the same factor (440 Hz → 550 Hz).
        let crossings = zip(shifted, shifted.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        let frequency = Double(crossings) / 2 / (Double(shifted.count) / rate)
        #expect(abs(frequency - 550) < 10, "\(frequency)")
    }

    @Test func gainScalesAndClips() {
        let audio = PCMAudioFactory.make([1000, -1000, 30000])
        #expect(AudioAdjustments.applyingGain(2, to: audio).samples == [2000, -2000, Int16.max])
        #expect(AudioAdjustments.applyingGain(1, to: audio) == audio)
    }

    @Test func locatorFindsExecutablesOnItsPathOnly() {
        #expect(ExecutableLocator(searchPath: ["/bin", "/usr/bin"]).locate("sh") != nil)
        #expect(ExecutableLocator(searchPath: ["/nonexistent"]).locate("sh") == nil)
        #expect(ExecutableLocator(searchPath: ["/usr/bin"]).locate("definitely-not-a-command-\(UUID())") == nil)
    }
}

import Audio

enum PCMAudioFactory {
    static func make(_ samples: [Int16]) -> PCMAudio { PCMAudio(sampleRate: 16000, samples: samples) }
}
