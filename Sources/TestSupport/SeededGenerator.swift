/// SplitMix64: a tiny seeded generator, so every property and fuzz case is reproducible from
/// its seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }

    /// `seed` with a few bytes flipped, inserted (often ≥ 0x80, CR/LF, markup and ZIP
    /// signature bytes) or removed.
    public mutating func mutate(_ seed: [UInt8], edits: ClosedRange<Int> = 1...6) -> [UInt8] {
        var bytes = seed
        let interesting: [UInt8] = [0x00, 0x0A, 0x0D, 0x22, 0x2D, 0x3A, 0x3B, 0x3C, 0x3E, 0x26, 0x5B, 0x5D, 0x80, 0xC3, 0xE2, 0xFF, 0x50, 0x4B]
        for _ in 0..<Int.random(in: edits, using: &self) {
            let byte = Bool.random(using: &self) ? interesting.randomElement(using: &self)! : UInt8.random(in: 0...255, using: &self)
            let at = Int.random(in: 0...bytes.count, using: &self)
            switch Int.random(in: 0..<4, using: &self) {
            case 0 where at < bytes.count: bytes[at] = byte
            case 1 where at < bytes.count: bytes.remove(at: at)
            case 2 where at + 16 <= bytes.count: bytes.removeSubrange(at..<(at + Int.random(in: 1...16, using: &self)))
            default: bytes.insert(byte, at: at)
            }
        }
        return bytes
    }
}
