import Foundation
import StoryModel
import Testing
@testable import StoryText

@Suite("Import: Markdown")
struct ImportMarkdownTests {
    let markdown = """
        ---
        title: "The Lantern"
        author: Jo March
        ---

        # The Lantern

        An *old* tale, told **twice**, of `lanterns` and [the sea](https://example.com/sea "Sea").
        ![A lantern](lantern.png)
        It was snake_case_free.

        ## Chapter 1

        > “Light it,” said __Beth__.

        - first thing
        - second thing

        ```swift
        let glow = true
        ```

        Chapter Two
        -----------

        The end \\*really\\*. ~~Not~~ Truly.

        [sea]: https://example.com
        """

    @Test func removesSyntaxThatWouldBeReadAloud() throws {
        let document = try StoryImporter.load(data: Data(markdown.utf8), filename: "lantern.md")
        #expect(document.text == """
            The Lantern

            An old tale, told twice, of lanterns and the sea. It was snake_case_free.

            Chapter 1

            “Light it,” said Beth.

            first thing

            second thing

            let glow = true

            Chapter Two

            The end *really*. Not Truly.
            """)
        #expect(document.title == "The Lantern")
        #expect(document.author == "Jo March")
    }

    @Test func headingsBecomeChapters() throws {
        let document = try StoryImporter.load(data: Data(markdown.utf8), filename: "lantern.md")
        // The lone `#` title joins the opening; the `##` level marks chapters.
        #expect(document.chapters.map(\.title) == ["Chapter 1", "Chapter Two"])
        #expect(chaptersTile(document.chapters, document.text))
        let second = document.chapters[1]
        #expect(document.text.scalars(second.start, second.end).hasPrefix("Chapter Two\n\nThe end"))
    }

    @Test func titleFromFirstHeadingWithoutFrontMatter() throws {
        let document = try StoryImporter.load(data: Data("Intro line.\n\n# Winter's Tale\n\nSnow.\n".utf8), filename: "w.markdown")
        #expect(document.title == "Winter's Tale")
        #expect(document.text == "Intro line.\n\nWinter's Tale\n\nSnow.")
    }
}

@Suite("Import: HTML")
struct ImportHTMLTests {
    @Test func aDoctypesInternalSubsetIsNotText() throws {
        let xhtml = """
            <?xml version="1.0" encoding="utf-8"?>
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd" [
              <!ENTITY nbsp "&#160;">
              <!ENTITY author "Saki > everyone">
            ]>
            <html xmlns="http://www.w3.org/1999/xhtml"><body><p>The niece said nothing.</p></body></html>
            """
        let document = try StoryImporter.load(data: Data(xhtml.utf8), filename: "chapter.xhtml")
        #expect(document.text == "The niece said nothing.")
    }

    @Test func entitiesAndBlocks() throws {
        let html = """
            <!DOCTYPE html>
            <html><head><title>The  Visit</title><meta name="author" content="A. Person">
            <script>var x = "<p>not text</p>";</script><style>p{color:red}</style></head>
            <body>
            <h1>The Visit</h1>
            <p>&ldquo;Caf&eacute;&rdquo;&nbsp;&mdash; said   Anne&hellip; &#8216;yes&#x2019; &#147;ok&#148; &copy;
            <b>bold</b>ly&amp;more &unknown; AT&T</p>
            <div>Line one<br>Line two<BR/>Line three
            <p>Unclosed paragraph
            <ul><li>Item A<li>Item B</ul>
            <blockquote>Quoted</blockquote>
            <table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>
            <!-- a comment with <p>tags</p> -->
            <p>5 &lt; 6 &gt; 4 and 3 < 4</p>
            </div>
            </body></html>
            """
        let document = try StoryImporter.load(data: Data(html.utf8), filename: "visit.html")
        #expect(document.text == """
            The Visit

            “Café” — said Anne… ‘yes’ “ok” © boldly&more &unknown; AT&T

            Line one

            Line two

            Line three

            Unclosed paragraph

            Item A

            Item B

            Quoted

            a b

            c

            5 < 6 > 4 and 3 < 4
            """)
        #expect(document.title == "The Visit")
        #expect(document.author == "A. Person")
        #expect(chaptersTile(document.chapters, document.text))
    }

    @Test func headingsAreChaptersAndTitleFallsBackToH1() throws {
        let html = """
            <h1>Three Doors</h1><p>A short preface.</p>
            <h2>The Red Door</h2><p>Red.</p>
            <h2>The Blue Door</h2><p>Blue.</p>
            """
        let document = try StoryImporter.load(data: Data(html.utf8), filename: "doors.htm")
        #expect(document.title == "Three Doors")
        #expect(document.chapters.map(\.title) == ["The Red Door", "The Blue Door"])
        #expect(document.chapters[0].start == 0)
        let blue = document.chapters[1]
        #expect(document.text.scalars(blue.start, blue.end) == "The Blue Door\n\nBlue.")
    }

    @Test func tokenizerSurvivesBrokenMarkup() {
        // A stray `<`, an entity without `;`, an end tag cut off by the end of the file.
        #expect(HTMLTextConverter.convert("<p>there<</p>&amp<i>x</i").text == "there<\n\n&x")
        #expect(HTMLTextConverter.convert("<P CLASS=x>Upper<SCRIPT>alert(1)</SCRIPT ></P><p>end").text == "Upper\n\nend")
        #expect(HTMLTextConverter.convert("<p>a<![CDATA[ <b>&amp;</b> ]]>b</p>").text == "a <b>&amp;</b> b")
    }

    @Test func deeplyNestedMarkupStaysShallow() {
        let hostile = String(repeating: "<ol><li>", count: 50_000) + "<a href=\"c.xhtml\">Deep</a>"
        let root = MarkupElement.parse(hostile)
        #expect(root.descendants(named: "a").map(\.textContent) == ["Deep"])
    }
}
