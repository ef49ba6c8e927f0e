import Foundation

/// The formats StoryVoice imports.
enum StoryFormat: Equatable {
    case plainText, markdown, html, epub

    /// The format a file name's extension names. `nil` when the extension says nothing (none, or an
    /// unfamiliar one such as `.story`): the content decides. Throws for formats known not to be
    /// readable text (PDF, Word, Kindle, images, audio...).
    static func from(filename: String) throws -> StoryFormat? {
        let ext = (filename as NSString).pathExtension.lowercased()
        switch ext {
        case "txt", "text": return .plainText
        case "md", "markdown", "mdown", "mkd": return .markdown
        case "html", "htm", "xhtml", "xht": return .html
        case "epub": return .epub
        case "": return nil
        default:
            if unsupportedExtensions.contains(ext) {
                throw ImportError.unsupportedExtension(name: filename, fileExtension: ext)
            }
            return nil
        }
    }

    /// Formats people try to import that are not text. Named so the error can say so up front.
    private static let unsupportedExtensions: Set<String> = [
        "pdf", "doc", "docx", "odt", "rtf", "pages", "mobi", "azw", "azw3", "kfx", "fb2", "djvu", "cbz", "cbr",
        "png", "jpg", "jpeg", "gif", "webp", "heic", "tiff", "bmp", "svg",
        "mp3", "m4a", "m4b", "wav", "aac", "ogg", "opus", "flac", "mp4", "mov", "mkv", "webm",
        "zip", "gz", "tgz", "bz2", "xz", "7z", "rar", "tar", "exe", "dmg", "iso",
        "xls", "xlsx", "ppt", "pptx", "key", "numbers", "json", "csv",
    ]
}

/// Looks at bytes to tell text from other things, and to name what the other thing is.
enum ContentSniffer {
    enum Verdict: Equatable {
        case text
        case zip
        case binary(kind: String?)
    }

    static func sniff(_ data: Data) -> Verdict {
        if TextDecoding.hasUTF16BOM(data) { return .text }
        let head = data.prefix(64 * 1024)
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            return .zip
        }
        if let kind = magicKind(head) { return .binary(kind: kind) }
        return data.withUnsafeBytes { raw -> Verdict in
            let bytes = raw.bindMemory(to: UInt8.self)
            let headCount = min(bytes.count, 64 * 1024)
            var controls = 0
            for byte in bytes[..<headCount] where byte < 0x20 {
                if byte == 0 { return .binary(kind: nil) }
                // Tab, LF, VT, FF, CR and ESC appear in real text files; other C0 controls don't.
                if byte != 0x09, byte != 0x0A, byte != 0x0B, byte != 0x0C, byte != 0x0D, byte != 0x1B {
                    controls += 1
                }
            }
            if controls * 20 > headCount { return .binary(kind: nil) }
            // A NUL anywhere later still means binary (memchr: this runs over the whole file).
            if let base = bytes.baseAddress, bytes.count > headCount,
               memchr(base + headCount, 0, bytes.count - headCount) != nil {
                return .binary(kind: nil)
            }
            return .text
        }
    }

    /// True when the (decoded) text starts like an HTML or XHTML document.
    static func looksLikeHTML(_ text: String) -> Bool {
        let start = text.prefix(1024).drop { $0.isWhitespace }.lowercased()
        return start.hasPrefix("<!doctype html") || start.hasPrefix("<html")
            || (start.hasPrefix("<?xml") && start.contains("<html"))
    }

    private static func magicKind(_ head: Data) -> String? {
        func has(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && head.dropFirst(offset).starts(with: bytes)
        }
        if has(Array("%PDF".utf8)) { return "a PDF" }
        if has([0x89, 0x50, 0x4E, 0x47]) { return "a PNG image" }
        if has([0xFF, 0xD8, 0xFF]) { return "a JPEG image" }
        if has(Array("GIF8".utf8)) { return "a GIF image" }
        if has(Array("RIFF".utf8)) { return "a RIFF file (WAV audio, AVI video or WebP image)" }
        if has(Array("ID3".utf8)) { return "an MP3 file" }
        if has(Array("ftyp".utf8), at: 4) { return "an MP4/M4A/M4B audio or video file" }
        if has(Array("OggS".utf8)) { return "an Ogg audio file" }
        if has(Array("fLaC".utf8)) { return "a FLAC audio file" }
        if has(Array("{\\rtf".utf8)) { return "an RTF document" }
        if has([0xD0, 0xCF, 0x11, 0xE0]) { return "an old Microsoft Office document" }
        if has(Array("BOOKMOBI".utf8), at: 60) { return "a Kindle (MOBI) e-book" }
        if has([0x1F, 0x8B]) { return "a gzip archive" }
        if has(Array("Rar!".utf8)) { return "a RAR archive" }
        if has([0x37, 0x7A, 0xBC, 0xAF]) { return "a 7-Zip archive" }
        if has([0x7F, 0x45, 0x4C, 0x46]) { return "a program (ELF)" }
        return nil
    }
}
