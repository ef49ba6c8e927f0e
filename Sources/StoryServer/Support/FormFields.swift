/// The fields of an `application/x-www-form-urlencoded` body, read flat as the WHATWG URL
/// standard reads them: a field's name is its name, brackets and all.
///
/// Vapor's form decoder reads `a[b]` as nesting and refuses a body whose *extra* field has an
/// unbalanced `[`, so a login with correct credentials could be answered 400. The login needs
/// two flat fields and nothing more.
struct FormFields: Sendable {
    private let pairs: [(name: String, value: String)]

    init(body: String) {
        pairs = body.split(separator: "&", omittingEmptySubsequences: true).map { field in
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (Self.decode(parts[0]), parts.count > 1 ? Self.decode(parts[1]) : "")
        }
    }

    /// Every field in the order sent (Twilio signs all of them).
    var all: [(name: String, value: String)] { pairs }

    /// The first value given for `name`.
    subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// `+` is a space; a `%` not followed by two hex digits stays as it is (WHATWG, not an error).
    static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
                      let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) {
                bytes.append(high << 4 | low)
                index += 2
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
