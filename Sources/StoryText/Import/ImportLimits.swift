/// How much a single import may read. The defaults fit any real novel; the limits exist so that a
/// hostile or mistaken upload cannot exhaust memory.
public struct ImportLimits: Sendable, Hashable {
    /// The largest story text accepted, in UTF-8 bytes (default 20 MB).
    public var maxTextBytes: Int
    /// EPUB: the total uncompressed size of the archive's entries (default 200 MB).
    public var maxUncompressedBytes: Int
    /// EPUB: the largest uncompressed/compressed ratio of one entry (default 200), a zip-bomb guard.
    public var maxCompressionRatio: Int

    public init(maxTextBytes: Int = 20_000_000, maxUncompressedBytes: Int = 200_000_000, maxCompressionRatio: Int = 200) {
        self.maxTextBytes = maxTextBytes
        self.maxUncompressedBytes = maxUncompressedBytes
        self.maxCompressionRatio = maxCompressionRatio
    }
}
