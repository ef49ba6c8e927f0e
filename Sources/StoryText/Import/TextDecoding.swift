import Foundation

/// Bytes to text the way people's story files are actually encoded: a BOM wins (UTF-8, UTF-16 LE/BE),
/// then UTF-8 if the bytes are valid UTF-8, else Windows-1252 (a superset of Latin-1 for text).
/// Line endings become LF and a leading BOM is dropped, so offsets count what a reader sees.
enum TextDecoding {
    enum Encoding: Equatable { case utf8, utf16LittleEndian, utf16BigEndian, windows1252 }

    static func decode(_ data: Data) -> String {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let (encoding, bomLength) = detect(bytes)
            let body = UnsafeBufferPointer(rebasing: bytes[bomLength...])
            let text: String
            switch encoding {
            case .utf8:
                if let valid = String(validating: body, as: UTF8.self) {
                    text = valid
                } else if looksLikeDamagedUTF8(body) {
                    // Mostly UTF-8 with a few broken bytes: keep the good text, mark the damage.
                    text = String(decoding: body, as: UTF8.self)
                } else {
                    text = windows1252(body)
                }
            case .utf16LittleEndian: text = utf16(body, bigEndian: false)
            case .utf16BigEndian: text = utf16(body, bigEndian: true)
            case .windows1252: text = windows1252(body)
            }
            return normalizingNewlines(droppingBOM(text))
        }
    }

    /// What a reader should know about how `data` was read, or nil when it was plain UTF-8 (or
    /// had a byte-order mark): text that is not UTF-8 is read as Windows-1252, and UTF-8 with a
    /// few broken bytes keeps its good text with the broken bytes replaced by "�".
    static func note(for data: Data) -> String? {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let (_, bomLength) = detect(bytes)
            let body = UnsafeBufferPointer(rebasing: bytes[bomLength...])
            guard bomLength == 0, String(validating: body, as: UTF8.self) == nil else { return nil }
            let (_, invalid) = utf8Census(body)
            return looksLikeDamagedUTF8(body)
                ? "it is UTF-8 with \(invalid) broken byte(s), shown as \u{FFFD}; check those places, or save the file again as UTF-8"
                : "it is not UTF-8, so it was read as Windows-1252 (Western European); if letters look wrong, save the file as UTF-8 and import it again"
        }
    }

    /// Valid multi-byte UTF-8 sequences and invalid bytes in `bytes`.
    static func utf8Census(_ bytes: UnsafeBufferPointer<UInt8>) -> (sequences: Int, invalid: Int) {
        var sequences = 0, invalid = 0, index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0
            if length == 1 { index += 1; continue }
            if length > 1, index + length <= bytes.count, (1..<length).allSatisfy({ bytes[index + $0] & 0xC0 == 0x80 }) {
                sequences += 1
                index += length
            } else {
                invalid += 1
                index += 1
            }
        }
        return (sequences, invalid)
    }

    /// UTF-8 text with some damage rather than another encoding: it holds real multi-byte
    /// sequences, and broken bytes are rare among them.
    static func looksLikeDamagedUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let (sequences, invalid) = utf8Census(bytes)
        return sequences >= 3 && invalid * 10 <= sequences
    }

    /// The encoding a BOM announces (and its length), else UTF-8 to be validated.
    static func detect(_ bytes: UnsafeBufferPointer<UInt8>) -> (Encoding, Int) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return (.utf8, 3) }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { return (.utf16LittleEndian, 2) }
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { return (.utf16BigEndian, 2) }
        return (.utf8, 0)
    }

    /// True when the data starts with a UTF-16 byte-order mark (such text legitimately holds NUL bytes).
    static func hasUTF16BOM(_ data: Data) -> Bool {
        guard data.count >= 2 else { return false }
        let first = data[data.startIndex], second = data[data.startIndex + 1]
        return (first == 0xFF && second == 0xFE) || (first == 0xFE && second == 0xFF)
    }

    private static func utf16(_ bytes: UnsafeBufferPointer<UInt8>, bigEndian: Bool) -> String {
        var units = [UInt16]()
        units.reserveCapacity(bytes.count / 2)
        var index = 0
        while index + 1 < bytes.count {
            let a = UInt16(bytes[index]), b = UInt16(bytes[index + 1])
            units.append(bigEndian ? (a << 8 | b) : (b << 8 | a))
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// Windows-1252: Latin-1 except 0x80–0x9F, which hold curly quotes, dashes, € and friends.
    /// The five bytes cp1252 leaves undefined keep their Latin-1 (C1 control) meaning.
    static func windows1252(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        // Straight to UTF-8 bytes: far cheaper than growing a String scalar by scalar.
        var utf8 = [UInt8]()
        utf8.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            utf8.appendUTF8(windows1252Scalar(byte))
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    static func windows1252Scalar(_ byte: UInt8) -> Unicode.Scalar {
        if byte >= 0x80, byte <= 0x9F, let mapped = Unicode.Scalar(windows1252High[Int(byte - 0x80)]) {
            return mapped
        }
        return Unicode.Scalar(byte)
    }

    /// Code points of bytes 0x80...0x9F in Windows-1252 (undefined bytes map to themselves).
    static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    private static func droppingBOM(_ text: String) -> String {
        text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
    }

    /// CRLF and lone CR become LF. One pass over UTF-8; untouched text is returned as is.
    static func normalizingNewlines(_ text: String) -> String {
        var text = text
        return text.withUTF8 { utf8 in
            guard utf8.contains(0x0D) else { return nil }
            var out = [UInt8]()
            out.reserveCapacity(utf8.count)
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                if byte == 0x0D {
                    out.append(0x0A)
                    if index + 1 < utf8.count, utf8[index + 1] == 0x0A { index += 1 }
                } else {
                    out.append(byte)
                }
                index += 1
            }
            return String(decoding: out, as: UTF8.self)
        } ?? text
    }
}
