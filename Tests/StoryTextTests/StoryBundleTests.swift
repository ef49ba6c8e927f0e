import Foundation
import StoryModel
import Testing
@testable import StoryText

@Suite("Import: story bundles")
struct StoryBundleTests {
    static let text = "“Who is there?” asked Mara.\n\nNobody answered."

    static func analysed() -> StoryAnalysis {
        StoryAnalyzer().analyze(StoryDocument(title: "Knock", author: "Ada Writer", text: text))
    }

    @Test func roundTripKeepsTextAnalysisAndVoices() throws {
        let cast = Data(#"{"characters":{"mara":{"voice":"flite:slt","rate":1.1,"pitch":0,"volume":1}}}"#.utf8)
        let bundle = StoryBundle(title: "Knock", author: "Ada Writer", text: Self.text, analysis: Self.analysed(), cast: cast)
        let data = try bundle.archive()
        #expect(StoryBundle.isBundle(data))
        #expect(try StoryBundle.read(data, name: "knock.storyvoice.zip") == bundle)
    }

    @Test func aBundleWithoutAnalysisOrVoicesIsJustItsText() throws {
        let data = try StoryBundle(title: "Knock", author: nil, text: Self.text, analysis: nil, cast: nil).archive()
        let read = try StoryBundle.read(data, name: "knock.storyvoice.zip")
        #expect(read.text == Self.text && read.analysis == nil && read.cast == nil && read.author == nil)
    }

    @Test func anEPUBIsNotABundle() throws {
        #expect(!StoryBundle.isBundle(try EPUBFixtures.epub3()))
        #expect(!StoryBundle.isBundle(Data(Self.text.utf8)))
    }

    @Test func anAnalysisOfOtherTextIsRefused() throws {
        var analysis = Self.analysed()
        analysis.segments[analysis.segments.count - 1].end += 5
        let data = try StoryBundle(title: "Knock", author: nil, text: Self.text, analysis: analysis, cast: nil).archive()
        let error = #expect(throws: ImportError.self) { try StoryBundle.read(data, name: "k.storyvoice.zip") }
        #expect(error == .brokenBundle(name: "k.storyvoice.zip", reason: "analysis.json does not match text.txt"))
    }

    @Test func aNewerBundleVersionSaysSo() throws {
        let manifest = #"{"format":"storyvoice-story","version":99,"title":"Knock"}"#
        let data = try EPUBFixtures.zip([.init("storyvoice.json", manifest), .init("text.txt", Self.text)])
        let error = #expect(throws: ImportError.self) { try StoryBundle.read(data, name: "k.storyvoice.zip") }
        #expect(error?.description.contains("newer StoryVoice") == true)
    }

    @Test func aBundleThatInflatesPastTheLimitsIsAZipBomb() throws {
        let manifest = #"{"format":"storyvoice-story","version":1,"title":"Knock"}"#
        let zeros = Data(repeating: 0x20, count: 4_000_000)
        let data = try EPUBFixtures.zip([.init("storyvoice.json", manifest), .init("text.txt", data: zeros)])
        #expect(data.count < 100_000)
        let error = #expect(throws: ImportError.self) { try StoryBundle.read(data, name: "bomb.storyvoice.zip") }
        guard case .zipBomb = error else {
            Issue.record("expected a zip bomb, got \(String(describing: error))")
            return
        }
    }

    @Test func damagedArchivesAndMissingPartsAreExplained() throws {
        let noText = try EPUBFixtures.zip([.init("storyvoice.json", #"{"format":"storyvoice-story","version":1,"title":"K"}"#)])
        #expect(throws: ImportError.brokenBundle(name: "k.zip", reason: "text.txt is missing")) { try StoryBundle.read(noText, name: "k.zip") }
        let notManifest = try EPUBFixtures.zip([.init("storyvoice.json", "[]"), .init("text.txt", Self.text)])
        #expect(throws: ImportError.brokenBundle(name: "k.zip", reason: "storyvoice.json is missing or is not a story manifest")) {
            try StoryBundle.read(notManifest, name: "k.zip")
        }
        #expect(throws: ImportError.brokenBundle(name: "k.zip", reason: "it is not a ZIP archive")) {
            try StoryBundle.read(Data("PK nonsense".utf8), name: "k.zip")
        }
    }
}
