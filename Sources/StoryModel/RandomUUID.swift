import Foundation

extension UUID {
    /// A random (version 4) UUID from the system's random source.
    ///
    /// Foundation's `UUID.random()` reads /dev/urandom and, with no file descriptor left (EMFILE),
    /// returns 00000000-0000-4000-8000-000000000000 every time: two listening sessions, two
    /// engine scratch folders or two cache files made then would share one name. This asks
    /// the kernel (getrandom) and needs no descriptor. `scripts/check-sources` keeps `UUID.random()`
    /// out of Sources.
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40  // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 4122 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
