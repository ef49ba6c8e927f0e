/// ffmpeg's FFMETADATA1 text: global tags and chapters handed to the muxer as a second input.
enum FFMetadata {
    /// Renders tags (in the order given) and chapters with millisecond timebase.
    ///
    /// Chapters are sorted by start and given a positive length, since muxers drop or reject
    /// chapters that end before they begin.
    static func render(tags: [(key: String, value: String)], chapters: [ChapterMark]) -> String {
        var out = ";FFMETADATA1\n"
        for tag in tags { out += "\(escape(tag.key))=\(escape(tag.value))\n" }
        for chapter in sorted(chapters) {
            let start = max(0, chapter.startMs)
            let end = max(start + 1, chapter.endMs)
            out += "\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(start)\nEND=\(end)\ntitle=\(escape(chapter.title))\n"
        }
        return out
    }

    /// Chapters as Ogg's Vorbis-comment convention: `CHAPTER001=HH:MM:SS.mmm`, `CHAPTER001NAME=title`.
    static func vorbisChapterComments(_ chapters: [ChapterMark]) -> [(key: String, value: String)] {
        sorted(chapters).enumerated().flatMap { index, chapter -> [(key: String, value: String)] in
            let key = "CHAPTER" + (index < 10 ? "00" : index < 100 ? "0" : "") + String(index)
            return [(key, WebVTT.timestamp(chapter.startMs)), (key + "NAME", chapter.title)]
        }
    }

    static func sorted(_ chapters: [ChapterMark]) -> [ChapterMark] {
        chapters.enumerated().sorted { ($0.element.startMs, $0.offset) < ($1.element.startMs, $1.offset) }.map(\.element)
    }

    /// Backslash-escapes the characters FFMETADATA1 gives meaning: `=`, `;`, `#`, `\` and newline.
    static func escape(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for character in value {
            switch character {
            case "=", ";", "#", "\\": out += "\\" + String(character)
            case "\r\n", "\n", "\r": out += "\\\n"
            default: out.append(character)
            }
        }
        return out
    }
}
