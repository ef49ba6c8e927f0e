/// The result of analysing a story: its cast, chapters and labelled segments.
/// This is exactly the JSON that `storyvoice analyze --format json` prints.
public struct StoryAnalysis: Codable, Sendable, Hashable {
    public var title: String
    public var author: String?
    public var characters: [Character]
    public var chapters: [Chapter]
    public var segments: [Segment]

    public init(title: String, author: String? = nil, characters: [Character], chapters: [Chapter], segments: [Segment]) {
        self.title = title
        self.author = author
        self.characters = characters
        self.chapters = chapters
        self.segments = segments
    }

    public func character(id: String) -> Character? {
        characters.first { $0.id == id }
    }
}
