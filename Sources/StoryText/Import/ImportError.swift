/// Why a story could not be imported. Every message says what happened and what to do.
public enum ImportError: Error, Equatable, CustomStringConvertible {
    case fileNotFound(path: String)
    /// The file exists but could not be read (a folder, no permission, ...).
    case unreadableFile(path: String, reason: String)
    /// The file is empty, holds only whitespace, or (for markup) has no readable text.
    case emptyFile(name: String)
    /// The text (or the file) is larger than `limit` bytes.
    case tooLarge(name: String, bytes: Int, limit: Int)
    /// Not text: `kind` names what it looks like ("a PDF"), when known.
    case binaryFile(name: String, kind: String?)
    case unsupportedExtension(name: String, fileExtension: String)
    case brokenEPUB(name: String, problem: EPUBProblem)
    /// A StoryVoice story bundle (`.storyvoice.zip`) that is damaged or from a newer version.
    case brokenBundle(name: String, reason: String)
    /// The EPUB's archive would expand beyond the import limits.
    case zipBomb(name: String, evidence: ZipBombEvidence)

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "No file at \(path). Check the path and try again."
        case .unreadableFile(let path, let reason):
            return "Can't read \(path): \(reason). Check that it is a file you are allowed to read."
        case .emptyFile(let name):
            return "\(name) has no text to read. Choose a file that contains the story."
        case .tooLarge(let name, let bytes, let limit):
            return "\(name) is \(ByteCount(bytes)) of text, more than the \(ByteCount(limit)) limit. "
                + "If it really is one story, raise the limit with --max-size."
        case .binaryFile(let name, let kind):
            let looks = kind.map { "\(name) looks like \($0), not text" } ?? "\(name) looks like a binary file, not text"
            return "\(looks). StoryVoice reads .txt, .md, .html and .epub; export or save the story in one of those."
        case .unsupportedExtension(let name, let ext):
            return "StoryVoice can't read .\(ext) files (\(name)). It reads .txt, .md, .html and .epub; "
                + "export or save the story in one of those."
        case .brokenEPUB(let name, let problem):
            return "\(name) is not a readable EPUB: \(problem). Re-export it from the tool that made it, "
                + "or convert it (for example with Calibre) to a fresh EPUB or to plain text."
        case .brokenBundle(let name, let reason):
            return "\(name) is not a readable StoryVoice story bundle: \(reason). Export the story again, "
                + "or import its text file instead."
        case .zipBomb(let name, let evidence):
            return "\(name) was not imported: \(evidence). This can be a malicious archive (a \"zip bomb\"); "
                + "if you trust the file, import it with higher limits."
        }
    }
}

/// What is wrong with an EPUB's structure.
public enum EPUBProblem: Equatable, Sendable, CustomStringConvertible {
    case notAZip
    case missingContainer
    case missingPackage(path: String)
    case unreadablePackage(path: String)
    case emptySpine
    case unreadableDocument(path: String)

    public var description: String {
        switch self {
        case .notAZip: return "it is not a ZIP archive"
        case .missingContainer: return "META-INF/container.xml is missing or names no package file"
        case .missingPackage(let path): return "the package file \(path) named by container.xml is missing"
        case .unreadablePackage(let path): return "the package file \(path) is not valid XML"
        case .emptySpine: return "its spine lists no readable documents"
        case .unreadableDocument(let path): return "the document \(path) is missing or damaged"
        }
    }
}

/// Why an EPUB archive was judged a zip bomb.
public enum ZipBombEvidence: Equatable, Sendable, CustomStringConvertible {
    /// The entries' uncompressed sizes add up to more than the limit (declared or found while extracting).
    case totalSize(bytes: Int, limit: Int)
    /// One entry expands more than the allowed ratio.
    case compressionRatio(entry: String, ratio: Int, limit: Int)
    /// An entry expanded to more bytes than its header declared: the header lies.
    case sizeMismatch(entry: String, declared: Int)

    public var description: String {
        switch self {
        case .totalSize(let bytes, let limit):
            return "it expands to at least \(ByteCount(bytes)), more than the \(ByteCount(limit)) allowed"
        case .compressionRatio(let entry, let ratio, let limit):
            return "\(entry) expands \(ratio) times, more than the \(limit) times allowed"
        case .sizeMismatch(let entry, let declared):
            return "\(entry) expands beyond the \(declared) bytes its header declares"
        }
    }
}

/// A byte count for people: "812 bytes", "3.4 MB".
struct ByteCount: CustomStringConvertible {
    let bytes: Int
    init(_ bytes: Int) { self.bytes = bytes }

    var description: String {
        if bytes < 1_000 { return "\(bytes) bytes" }
        if bytes < 1_000_000 { return Self.format(Double(bytes) / 1_000, "KB") }
        if bytes < 1_000_000_000 { return Self.format(Double(bytes) / 1_000_000, "MB") }
        return Self.format(Double(bytes) / 1_000_000_000, "GB")
    }

    private static func format(_ value: Double, _ unit: String) -> String {
        let tenths = (value * 10).rounded()
        let whole = Int(tenths) / 10, fraction = Int(tenths) % 10
        return fraction == 0 ? "\(whole) \(unit)" : "\(whole).\(fraction) \(unit)"
    }
}
