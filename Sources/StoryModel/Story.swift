/// A story as imported: its text exactly as read, and what the source said about it.
///
/// All offsets anywhere in StoryVoice count Unicode scalars of `text`.
public struct StoryDocument: Sendable, Hashable {
    public var title: String
    public var author: String?
    public var text: String
    /// Chapters from the source's own table of contents, if it had one; otherwise empty and
    /// chapters are detected from headings.
    public var chapters: [Chapter]

    public init(title: String, author: String? = nil, text: String, chapters: [Chapter] = []) {
        self.title = title
        self.author = author
        self.text = text
        self.chapters = chapters
    }
}

/// A chapter: a titled span of the text, `[start, end)` in Unicode scalars.
public struct Chapter: Codable, Sendable, Hashable {
    public var title: String
    public var start: Int
    public var end: Int

    public init(title: String, start: Int, end: Int) {
        self.title = title
        self.start = start
        self.end = end
    }
}
