import Foundation
import StoryModel
import Testing
import ZIPFoundation
@testable import StoryText

@Suite("Import: EPUB")
struct ImportEPUBTests {
    @Test func epub3WithNavigation() throws {
        let document = try StoryImporter.load(data: try EPUBFixtures.epub3(), filename: "trials.epub")
        #expect(document.title == "The Three Trials")
        #expect(document.author == "Ada Writer")
        #expect(document.text == """
            The Three Trials

            by Ada Writer

            Chapter One

            It began on a Tuesday, as the worst things do.

            Mara said, “We leave at dawn.”

            Chapter Two

            The road was long & the rain was cold.

            Chapter Three

            At last the gate opened.
            """)
        #expect(document.chapters.map(\.title) == ["Chapter One", "Chapter Two", "Chapter Three"])
        #expect(chaptersTile(document.chapters, document.text))
        // The short title page joins chapter one; the others start exactly at their headings.
        #expect(document.chapters[0].start == 0)
        let two = document.chapters[1], three = document.chapters[2]
        #expect(document.text.scalars(two.start, two.end) == "Chapter Two\n\nThe road was long & the rain was cold.\n\n")
        #expect(document.text.scalars(three.start, three.end) == "Chapter Three\n\nAt last the gate opened.")
    }

    @Test("the navigation document, a cover and a table of contents in the spine are not read as the story")
    func apparatusIsLeftOut() throws {
        let cover = EPUBFixtures.File("OEBPS/Text/cover.xhtml", """
            <?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
            <head><title>Cover</title></head><body epub:type="cover"><p>Cover image description</p></body></html>
            """)
        let contents = EPUBFixtures.File("OEBPS/Text/contents.xhtml", """
            <?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml">
            <head><title>Contents</title></head><body><section role="doc-toc"><h1>Contents</h1><p>Chapter One</p><p>Chapter Two</p></section></body></html>
            """)
        let data = try EPUBFixtures.epub3(
            extraFiles: [cover, contents],
            manifestExtras: #"<item id="cover" href="Text/cover.xhtml" media-type="application/xhtml+xml"/><item id="contents" href="Text/contents.xhtml" media-type="application/xhtml+xml"/>"#,
            spineFirst: #"<itemref idref="cover"/><itemref idref="nav"/><itemref idref="contents"/>"#,
            // As publishers' contents do: entries for the pages that are not narrated.
            tocFirst: #"<li><a href="cover.xhtml">Cover</a></li><li><a href="nav.xhtml">Table of Contents</a></li><li><a href="contents.xhtml">Contents</a></li>"#)
        let document = try StoryImporter.load(data: data, filename: "trials.epub")
        let plain = try StoryImporter.load(data: try EPUBFixtures.epub3(), filename: "trials.epub")
        #expect(document.text == plain.text)
        #expect(document.chapters == plain.chapters)
        #expect(!document.text.contains("Contents"))
        #expect(!document.text.contains("Title Page"))
    }

    @Test("a document declares what it is on its body or its first element")
    func declaredTypes() {
        #expect(EPUBApparatus.outermostTypes(#"<html><body epub:type="frontmatter"><section epub:type="titlepage"><h1>T</h1>"#)
            == ["frontmatter", "titlepage"])
        #expect(EPUBApparatus.outermostTypes("<html><body><p>Text</p></body></html>").isEmpty)
    }

    @Test func epub3FromDisk() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write(try EPUBFixtures.epub3(), named: "trials.epub")
        let document = try StoryImporter.load(contentsOf: url)
        #expect(document.chapters.count == 3)
        #expect(document.title == "The Three Trials")
    }

    @Test func epub2WithNCX() throws {
        let document = try StoryImporter.load(data: try EPUBFixtures.epub2(), filename: "old-tales.epub")
        #expect(document.title == "Old Tales")
        #expect(document.author == "Old Author")
        #expect(document.chapters.map(\.title) == ["The Miller", "The Mill at Night", "The Smith"])
        #expect(chaptersTile(document.chapters, document.text))
        let night = document.chapters[1]
        #expect(document.text.scalars(night.start, night.end) == "At night the wheel went on turning\n\nand turning.\n\n")
        #expect(document.text.hasSuffix("The Smith\n\nThe smith’s hammer rang."))
    }

    @Test func withoutTableOfContentsFallsBackToHeadings() throws {
        let opf = """
            <package><metadata><dc:title>Loose</dc:title></metadata>
            <manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest>
            <spine><itemref idref="a"/></spine></package>
            """
        let body = EPUBFixtures.xhtml("<h2>First</h2><p>One.</p><h2>Second</h2><p>Two.</p>")
        let data = try EPUBFixtures.zip([
            .init("META-INF/container.xml", EPUBFixtures.container),
            .init("OEBPS/content.opf", opf),
            .init("OEBPS/a.xhtml", body),
        ])
        let document = try StoryImporter.load(data: data, filename: "loose.epub")
        #expect(document.chapters.map(\.title) == ["First", "Second"])
        #expect(chaptersTile(document.chapters, document.text))
    }

    @Test func anEPUBIsRecognisedWithoutItsExtension() throws {
        let document = try StoryImporter.load(data: try EPUBFixtures.epub3(), filename: "upload")
        #expect(document.title == "The Three Trials")
    }
}

@Suite("Import: broken and hostile EPUBs")
struct ImportBrokenEPUBTests {
    @Test func notAZip() {
        #expect(throws: ImportError.brokenEPUB(name: "x.epub", problem: .notAZip)) {
            try StoryImporter.load(data: Data("plain words".utf8), filename: "x.epub")
        }
    }

    @Test func missingContainer() throws {
        let data = try EPUBFixtures.zip([.init("mimetype", "application/epub+zip"), .init("OEBPS/a.xhtml", "<p>x</p>")])
        let error = #expect(throws: ImportError.brokenEPUB(name: "x.epub", problem: .missingContainer)) {
            try StoryImporter.load(data: data, filename: "x.epub")
        }
        #expect(error?.description.contains("container.xml") == true)
    }

    @Test func missingPackage() throws {
        let data = try EPUBFixtures.zip([.init("META-INF/container.xml", EPUBFixtures.container)])
        #expect(throws: ImportError.brokenEPUB(name: "x.epub", problem: .missingPackage(path: "OEBPS/content.opf"))) {
            try StoryImporter.load(data: data, filename: "x.epub")
        }
    }

    @Test func emptySpine() throws {
        let data = try EPUBFixtures.zip([
            .init("META-INF/container.xml", EPUBFixtures.container),
            .init("OEBPS/content.opf", "<package><metadata/><manifest/><spine/></package>"),
        ])
        #expect(throws: ImportError.brokenEPUB(name: "x.epub", problem: .emptySpine)) {
            try StoryImporter.load(data: data, filename: "x.epub")
        }
    }

    @Test func spineDocumentMissing() throws {
        let opf = """
            <package><manifest><item id="a" href="Text/a.xhtml" media-type="application/xhtml+xml"/></manifest>
            <spine><itemref idref="a"/></spine></package>
            """
        let data = try EPUBFixtures.zip([
            .init("META-INF/container.xml", EPUBFixtures.container),
            .init("OEBPS/content.opf", opf),
        ])
        #expect(throws: ImportError.brokenEPUB(name: "x.epub", problem: .unreadableDocument(path: "OEBPS/Text/a.xhtml"))) {
            try StoryImporter.load(data: data, filename: "x.epub")
        }
    }

    @Test func zipThatIsNotAnEPUB() throws {
        let docx = try EPUBFixtures.zip([.init("[Content_Types].xml", "<Types/>"), .init("word/document.xml", "<w:document/>")])
        #expect(throws: ImportError.binaryFile(name: "story.txt", kind: "a Word document (.docx)")) {
            try StoryImporter.load(data: docx, filename: "story.txt")
        }
        let plain = try EPUBFixtures.zip([.init("notes.txt", "hello")])
        #expect(throws: ImportError.binaryFile(name: "story", kind: "a ZIP archive that is not an EPUB")) {
            try StoryImporter.load(data: plain, filename: "story")
        }
        #expect(throws: ImportError.brokenEPUB(name: "story.epub", problem: .missingContainer)) {
            try StoryImporter.load(data: plain, filename: "story.epub")
        }
    }

    /// 2 MB of zeros deflate to about 2 KB: a small stand-in for a 300 MB bomb.
    static let zeros = Data(count: 2_000_000)

    @Test func declaredTotalOverTheLimitIsRefusedBeforeExtracting() throws {
        let data = try EPUBFixtures.epub3(extraFiles: [.init("OEBPS/Images/zeros.bin", data: Self.zeros)])
        #expect(data.count < 50_000)
        let limits = ImportLimits(maxUncompressedBytes: 1_000_000, maxCompressionRatio: 10_000)
        let error = #expect(throws: ImportError.self) { try StoryImporter.load(data: data, filename: "bomb.epub", limits: limits) }
        guard case .zipBomb(_, .totalSize(let bytes, let limit)) = error else {
            Issue.record("expected a total-size zip bomb, got \(String(describing: error))")
            return
        }
        #expect(bytes > 1_000_000 && limit == 1_000_000)
    }

    @Test func compressionRatioOverTheLimitIsRefused() throws {
        let data = try EPUBFixtures.epub3(extraFiles: [.init("OEBPS/Images/zeros.bin", data: Self.zeros)])
        let error = #expect(throws: ImportError.self) { try StoryImporter.load(data: data, filename: "bomb.epub") }
        guard case .zipBomb(_, .compressionRatio(let entry, let ratio, 200)) = error else {
            Issue.record("expected a ratio zip bomb, got \(String(describing: error))")
            return
        }
        #expect(entry == "OEBPS/Images/zeros.bin")
        #expect(ratio > 200)
    }

    @Test func entryThatLiesAboutItsSizeIsStoppedWhileExtracting() throws {
        let padding = String(repeating: " ", count: 2_000_000)
        let chapter = EPUBFixtures.xhtml("<h2>Chapter One</h2><p>Hi.\(padding)</p>")
        let path = "OEBPS/Text/chapter one.xhtml"
        // Chapter one really inflates to 2 MB, but its headers claim 1,000 bytes.
        let lying = EPUBFixtures.declaringSize(1_000, for: path, in: try EPUBFixtures.epub3(chapterOne: chapter))
        let error = #expect(throws: ImportError.self) { try StoryImporter.load(data: lying, filename: "liar.epub") }
        #expect(error == .zipBomb(name: "liar.epub", evidence: .sizeMismatch(entry: path, declared: 1_000)))
        #expect(error?.description.contains("zip bomb") == true)
    }

    @Test func extractedTextOverTheTextLimit() throws {
        let limits = ImportLimits(maxTextBytes: 100)
        let error = #expect(throws: ImportError.self) {
            try StoryImporter.load(data: try EPUBFixtures.epub3(), filename: "t.epub", limits: limits)
        }
        guard case .tooLarge(_, _, 100) = error else {
            Issue.record("expected tooLarge, got \(String(describing: error))")
            return
        }
    }
}
