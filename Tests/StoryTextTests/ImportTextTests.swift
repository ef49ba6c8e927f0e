import Foundation
import StoryModel
import Testing
@testable import StoryText

@Suite("Import: plain text and encodings")
struct ImportTextTests {
    let story = "“Où est le café?” she asked.\nHe said nothing."

    @Test func utf8() throws {
        let document = try StoryImporter.load(data: Data(story.utf8), filename: "cafe.txt")
        #expect(document.text == story)
        #expect(document.title == "Cafe")
    }

    @Test func utf8WithBOMDropsTheBOM() throws {
        let document = try StoryImporter.load(data: Data([0xEF, 0xBB, 0xBF] + Array(story.utf8)), filename: "cafe.txt")
        #expect(document.text == story)
        #expect(document.text.unicodeScalars.first == "“")
    }

    @Test func utf16LittleEndianWithBOM() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in story.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let document = try StoryImporter.load(data: Data(bytes), filename: "cafe.txt")
        #expect(document.text == story)
    }

    @Test func utf16BigEndianWithBOM() throws {
        var bytes: [UInt8] = [0xFE, 0xFF]
        for unit in (story + " 🎭").utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let document = try StoryImporter.load(data: Data(bytes), filename: "cafe.txt")
        #expect(document.text == story + " 🎭")
    }

    @Test func windows1252CurlyQuotesAndAccents() throws {
        // “Où est le café?” — 0x93/0x94 are curly quotes in cp1252, 0xF9 ù, 0xE9 é, 0x97 em dash.
        let bytes: [UInt8] = [0x93] + Array("O".utf8) + [0xF9] + Array(" est le caf".utf8) + [0xE9, 0x3F, 0x94, 0x97, 0x80]
        let document = try StoryImporter.load(data: Data(bytes), filename: "cafe.txt")
        #expect(document.text == "“Où est le café?”—€")
    }

    @Test func latin1WithoutHighControlBytes() throws {
        let bytes: [UInt8] = Array("Na".utf8) + [0xEF] + Array("ve fianc".utf8) + [0xE9, 0x65]
        let document = try StoryImporter.load(data: Data(bytes), filename: "naive.txt")
        #expect(document.text == "Naïve fiancée")
    }

    @Test func crlfAndLoneCRBecomeLF() throws {
        let document = try StoryImporter.load(data: Data("One.\r\nTwo.\r\rThree.\rFour.\n".utf8), filename: "lines.txt")
        #expect(document.text == "One.\nTwo.\n\nThree.\nFour.\n")
        #expect(document.chapters == [Chapter(title: "Lines", start: 0, end: document.text.unicodeScalars.count)])
    }

    @Test func titleFromFileName() {
        #expect(StoryMetadata.title(fromFilename: "the-gift-of-the-magi.txt") == "The Gift of the Magi")
        #expect(StoryMetadata.title(fromFilename: "/tmp/a_tale_of_two_cities.md") == "A Tale of Two Cities")
        #expect(StoryMetadata.title(fromFilename: "TheRaven.txt") == "TheRaven")
    }

    @Test func gutenbergHeaderGivesTitleAndAuthorButTextIsKept() throws {
        let text = """
            The Project Gutenberg eBook of The Gift of the Magi

            Title: The Gift of the Magi

            Author: O. Henry

            Release date: December 1, 2005 [eBook #7256]

            *** START OF THE PROJECT GUTENBERG EBOOK THE GIFT OF THE MAGI ***

            One dollar and eighty-seven cents. That was all.

            *** END OF THE PROJECT GUTENBERG EBOOK THE GIFT OF THE MAGI ***
            """
        let document = try StoryImporter.load(data: Data(text.utf8), filename: "pg7256.txt")
        #expect(document.title == "The Gift of the Magi")
        #expect(document.author == "O. Henry")
        #expect(document.text == text)
        #expect(document.chapters.count == 1)
        #expect(document.chapters[0].title == "The Gift of the Magi")
    }

    @Test func titlePageWithByline() throws {
        let text = "THE GAMBLER\n\nby Fyodor Dostoyevsky\n\nI\n\nAt length I returned.\n"
        let document = try StoryImporter.load(data: Data(text.utf8), filename: "novel_text.txt")
        #expect(document.title == "The Gambler")
        #expect(document.author == "Fyodor Dostoyevsky")
        let untitled = try StoryImporter.load(data: Data("It was late.\n\nby the sea, she waited.\n".utf8), filename: "late-night.txt")
        #expect(untitled.title == "Late Night")
        #expect(untitled.author == nil)
    }

    @Test func loadsFromAFileOnDisk() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write(Data("CHAPTER I\n\nIt rained.\n".utf8), named: "the-rain.txt")
        let document = try StoryImporter.load(contentsOf: url)
        #expect(document.title == "The Rain")
        #expect(document.text == "CHAPTER I\n\nIt rained.\n")
    }

    @Test func unknownExtensionIsSniffed() throws {
        let text = try StoryImporter.load(data: Data("Just words.".utf8), filename: "README")
        #expect(text.text == "Just words.")
        let html = try StoryImporter.load(data: Data("<!DOCTYPE html><html><body><p>Hi &amp; bye</p></body></html>".utf8), filename: "page.story")
        #expect(html.text == "Hi & bye")
    }

    @Test func oneMegabyteImportsAndTiles() throws {
        var text = ""
        for chapter in 1...40 {
            text += "CHAPTER \(chapter)\n\n"
            for paragraph in 0..<80 {
                text += "“Line \(paragraph),” said Mara. The café’s door swung open and shut in the wind.\n\n"
            }
        }
        #expect(text.utf8.count * 4 > 1_000_000)
        let big = String(repeating: text, count: 4)
        let document = try StoryImporter.load(data: Data(big.utf8), filename: "big.txt")
        #expect(document.text == big)
        #expect(chaptersTile(document.chapters, big))
        #expect(document.chapters.count == 160)
    }
}

@Suite("Import: errors")
struct ImportErrorTests {
    @Test func fileNotFound() {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/story.txt")
        #expect(throws: ImportError.fileNotFound(path: url.path)) { try StoryImporter.load(contentsOf: url) }
    }

    @Test func emptyAndWhitespaceOnly() {
        #expect(throws: ImportError.emptyFile(name: "a.txt")) { try StoryImporter.load(data: Data(), filename: "a.txt") }
        #expect(throws: ImportError.emptyFile(name: "b.txt")) { try StoryImporter.load(data: Data(" \n\t\r\n".utf8), filename: "b.txt") }
        #expect(throws: ImportError.emptyFile(name: "c.html")) {
            try StoryImporter.load(data: Data("<html><head><title>T</title></head><body> <br/> </body></html>".utf8), filename: "c.html")
        }
    }

    @Test func emptyFileOnDisk() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write(Data(), named: "empty.md")
        #expect(throws: ImportError.emptyFile(name: "empty.md")) { try StoryImporter.load(contentsOf: url) }
    }

    @Test func tooLargeSaysSizeLimitAndFlag() throws {
        let limits = ImportLimits(maxTextBytes: 1_000)
        let data = Data(String(repeating: "word ", count: 400).utf8)
        #expect(throws: ImportError.tooLarge(name: "long.txt", bytes: 2_000, limit: 1_000)) {
            try StoryImporter.load(data: data, filename: "long.txt", limits: limits)
        }
        let folder = try TemporaryFolder()
        let url = try folder.write(data, named: "long.txt")
        let error = #expect(throws: ImportError.self) { try StoryImporter.load(contentsOf: url, limits: limits) }
        let message = error?.description ?? ""
        #expect(message.contains("2 KB") && message.contains("1 KB") && message.contains("--max-size"))
    }

    @Test func binaryFilesAreNamed() {
        let pdf = Data("%PDF-1.7\n%âãÏÓ\n1 0 obj".utf8)
        let error = #expect(throws: ImportError.binaryFile(name: "story.txt", kind: "a PDF")) {
            try StoryImporter.load(data: pdf, filename: "story.txt")
        }
        #expect(error?.description.contains("StoryVoice reads .txt, .md, .html and .epub") == true)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        #expect(throws: ImportError.binaryFile(name: "x", kind: "a PNG image")) { try StoryImporter.load(data: png, filename: "x") }
        let nul = Data("Hello".utf8 + [0, 1, 2] + "world".utf8)
        #expect(throws: ImportError.binaryFile(name: "n.txt", kind: nil)) { try StoryImporter.load(data: nul, filename: "n.txt") }
        let controls = Data((0..<200).map { UInt8($0 % 8 + 1) })
        #expect(throws: ImportError.binaryFile(name: "c.md", kind: nil)) { try StoryImporter.load(data: controls, filename: "c.md") }
    }

    @Test func unsupportedExtension() {
        let error = #expect(throws: ImportError.unsupportedExtension(name: "book.pdf", fileExtension: "pdf")) {
            try StoryImporter.load(data: Data("x".utf8), filename: "book.pdf")
        }
        #expect(error?.description.contains(".epub") == true)
    }
}

@Suite("How text bytes were read is said")
struct EncodingNoteTests {
    @Test func windows1252IsReadAndSaid() throws {
        let bytes = Data([0x43, 0x61, 0x66, 0xE9, 0x20, 0x93, 0x48, 0x69, 0x94])  // Café “Hi” in Windows-1252
        let document = try StoryImporter.load(data: bytes, filename: "old.txt")
        #expect(document.text == "Café “Hi”")
        #expect(StoryImporter.encodingNote(for: bytes)?.contains("Windows-1252") == true)
    }

    @Test func damagedUTF8KeepsItsGoodTextAndSaysWhereItBroke() throws {
        let line = "“Café,” said Zoë — naïvely.\n"
        var bytes = Data(String(repeating: line, count: 3).utf8)
        bytes.insert(0xFF, at: line.utf8.count + Array(line.utf8).firstIndex(of: UInt8(ascii: " "))!)  // one broken byte, before a space
        let document = try StoryImporter.load(data: bytes, filename: "damaged.txt")
        #expect(document.text.contains("said Zoë — naïvely"))
        #expect(document.text.contains("\u{FFFD}"))
        #expect(StoryImporter.encodingNote(for: bytes)?.contains("1 broken byte") == true)
    }

    @Test func plainUTF8NeedsNoNote() {
        #expect(StoryImporter.encodingNote(for: Data("“Café,” said Zoë.".utf8)) == nil)
        #expect(StoryImporter.encodingNote(for: Data("plain ASCII".utf8)) == nil)
    }
}
