import Foundation
import ZIPFoundation

/// Builds ZIP and EPUB files in memory for the import tests.
enum EPUBFixtures {
    struct File {
        var path: String
        var data: Data
        var compressed = true

        init(_ path: String, _ text: String, compressed: Bool = true) {
            self.path = path
            self.data = Data(text.utf8)
            self.compressed = compressed
        }

        init(_ path: String, data: Data, compressed: Bool = true) {
            self.path = path
            self.data = data
            self.compressed = compressed
        }
    }

    static func zip(_ files: [File]) throws -> Data {
        let archive = try Archive(data: Data(), accessMode: .create, pathEncoding: nil)
        for file in files {
            let data = file.data
            try archive.addEntry(
                with: file.path, type: .file, uncompressedSize: Int64(data.count),
                compressionMethod: file.compressed ? .deflate : .none
            ) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return try require_(archive.data, "in-memory archive data")
    }

    static let container = """
        <?xml version="1.0" encoding="UTF-8"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <rootfiles>
            <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
          </rootfiles>
        </container>
        """

    static func xhtml(_ body: String, title: String = "Untitled") -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
        <head><title>\(title)</title><style>p { margin: 0; }</style></head>
        <body>
        \(body)
        </body>
        </html>
        """
    }

    static let titlePage = xhtml("<div class=\"title\"><h1>The Three Trials</h1><p>by Ada&nbsp;Writer</p></div>")
    static let chapterOne = xhtml("""
        <h2>Chapter One</h2>
        <p>It began on a Tuesday, as the worst things do.</p>
        <p>Mara said, &ldquo;We leave at dawn.&rdquo;</p>
        """)
    /// Chapters two and three share a file; three starts at an anchor.
    static let chaptersTwoAndThree = xhtml("""
        <section><h2>Chapter Two</h2>
        <p>The road was long &amp; the rain was cold.</p></section>
        <section><h2 id="c3">Chapter Three</h2>
        <p>At last the gate opened.</p></section>
        """)

    /// A valid EPUB 3: title page, three chapters in two files (one with a space in its name),
    /// a nav document with relative, percent-encoded and fragment links.
    /// `manifestExtras` and `spineFirst` add manifest items and spine entries before the title page.
    static func epub3(
        chapterOne: String = chapterOne, extraFiles: [File] = [], manifestExtras: String = "", spineFirst: String = "", tocFirst: String = ""
    ) throws -> Data {
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="id">urn:uuid:1</dc:identifier>
                <dc:title>The Three Trials</dc:title>
                <dc:creator>Ada Writer</dc:creator>
                <dc:language>en</dc:language>
              </metadata>
              <manifest>
                <item id="nav" href="Text/nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
                <item id="title" href="Text/title.xhtml" media-type="application/xhtml+xml"/>
                <item id="c1" href="Text/chapter%20one.xhtml" media-type="application/xhtml+xml"/>
                <item id="c2" href="Text/part2.xhtml" media-type="application/xhtml+xml"/>
                <item id="css" href="Styles/book.css" media-type="text/css"/>
                \(manifestExtras)
              </manifest>
              <spine>
                \(spineFirst)
                <itemref idref="title"/>
                <itemref idref="c1"/>
                <itemref idref="c2"/>
              </spine>
            </package>
            """
        let nav = xhtml("""
            <nav epub:type="toc" id="toc"><h1>Contents</h1>
              <ol>
                \(tocFirst)
                <li><a href="chapter%20one.xhtml">Chapter One</a></li>
                <li><a href="part2.xhtml">Chapter <em>Two</em></a>
                  <ol><li><a href="part2.xhtml#c3">Chapter Three</a></li></ol>
                </li>
              </ol>
            </nav>
            <nav epub:type="landmarks"><ol><li><a href="title.xhtml">Title Page</a></li></ol></nav>
            """)
        return try zip([
            File("mimetype", "application/epub+zip", compressed: false),
            File("META-INF/container.xml", container),
            File("OEBPS/content.opf", opf),
            File("OEBPS/Text/nav.xhtml", nav),
            File("OEBPS/Text/title.xhtml", titlePage),
            File("OEBPS/Text/chapter one.xhtml", chapterOne),
            File("OEBPS/Text/part2.xhtml", chaptersTwoAndThree),
            File("OEBPS/Styles/book.css", "p { text-indent: 1em; }"),
        ] + extraFiles)
    }

    /// A valid EPUB 2 with a toc.ncx (nested navPoints) and no nav document.
    static func epub2() throws -> Data {
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
                <dc:title>Old Tales</dc:title>
                <dc:creator opf:role="edt">An Editor</dc:creator>
                <dc:creator opf:role="aut">Old Author</dc:creator>
              </metadata>
              <manifest>
                <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
                <item id="c1" href="c1.html" media-type="application/xhtml+xml"/>
                <item id="c2" href="c2.html" media-type="application/xhtml+xml"/>
              </manifest>
              <spine toc="ncx">
                <itemref idref="c1"/>
                <itemref idref="c2"/>
              </spine>
            </package>
            """
        let ncx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" "http://www.daisy.org/z3986/2005/ncx-2005-1.dtd">
            <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
              <docTitle><text>Old Tales</text></docTitle>
              <navMap>
                <navPoint id="p1" playOrder="1"><navLabel><text>The Miller</text></navLabel><content src="c1.html"/>
                  <navPoint id="p1a" playOrder="2"><navLabel><text>The Mill at Night</text></navLabel><content src="c1.html#night"/></navPoint>
                </navPoint>
                <navPoint id="p2" playOrder="3"><navLabel><text>The Smith</text></navLabel><content src="c2.html"/></navPoint>
              </navMap>
            </ncx>
            """
        let c1 = xhtml("""
            <h1>The Miller</h1><p>The miller worked all day.</p>
            <p id="night">At night the wheel went on turning<br>and turning.</p>
            """)
        let c2 = xhtml("<h1>The Smith</h1><p>The smith&#8217;s hammer rang.</p>")
        return try zip([
            File("mimetype", "application/epub+zip", compressed: false),
            File("META-INF/container.xml", container),
            File("OEBPS/content.opf", opf),
            File("OEBPS/toc.ncx", ncx),
            File("OEBPS/c1.html", c1),
            File("OEBPS/c2.html", c2),
        ])
    }

    /// Rewrites the uncompressed size that both the local header and the central directory
    /// declare for `path`, as a hostile archive would.
    static func declaringSize(_ size: UInt32, for path: String, in zip: Data) -> Data {
        var bytes = [UInt8](zip)
        let name = Array(path.utf8)
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func put(_ value: UInt32, at: Int) {
            for index in 0..<4 { bytes[at + index] = UInt8((value >> (8 * UInt32(index))) & 0xFF) }
        }
        var offset = 0
        while offset + 46 <= bytes.count {
            if bytes[offset..<offset + 4].elementsEqual([0x50, 0x4B, 0x03, 0x04]),
               u16(offset + 26) == name.count, bytes[(offset + 30)..<(offset + 30 + name.count)].elementsEqual(name) {
                put(size, at: offset + 22)
            }
            if bytes[offset..<offset + 4].elementsEqual([0x50, 0x4B, 0x01, 0x02]),
               u16(offset + 28) == name.count, bytes[(offset + 46)..<(offset + 46 + name.count)].elementsEqual(name) {
                put(size, at: offset + 24)
            }
            offset += 1
        }
        return Data(bytes)
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
}

/// `#require` for fixture builders, which are not tests themselves.
func require_<T>(_ value: T?, _ what: String = "fixture value") throws -> T {
    guard let value else { throw FixtureError(description: "missing \(what)") }
    return value
}
