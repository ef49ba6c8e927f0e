import Foundation

/// A phone number in E.164: `+`, a country code that does not start with 0, 8 to 15 digits in
/// all. What people type ("+1 (415) 555-0100") is accepted without its spaces, dashes, dots and
/// brackets; anything else is refused with a message saying what is expected.
public struct PhoneNumber: Hashable, Sendable, Codable, CustomStringConvertible {
    public let e164: String

    public init(_ text: String) throws(CallsError) {
        // Room for the 15 digits and what people type between them; more is refused unread.
        guard text.utf8.count <= 64 else {
            throw .invalidPhoneNumber("That is not a phone number: write it in international form (+ then 8 to 15 digits, e.g. +14155550100).")
        }
        let kept = text.trimmingCharacters(in: .whitespacesAndNewlines)
            .filter { !" -.()\u{00A0}".contains($0) }
        guard kept.first == "+" else {
            throw .invalidPhoneNumber("\"\(text)\" has no country code: write it as +<country code><number>, e.g. +14155550100.")
        }
        let digits = kept.dropFirst()
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), (8...15).contains(digits.count), digits.first != "0" else {
            throw .invalidPhoneNumber("\"\(text)\" is not a phone number in international form (+ then 8 to 15 digits, e.g. +14155550100).")
        }
        e164 = kept
    }

    public var description: String { e164 }
}

/// A request the calls product refuses, with a message for the person who sent it.
public enum CallsError: Error, Equatable, Sendable {
    case invalidPhoneNumber(String)
    case invalidScenario(String)

    public var message: String {
        switch self {
        case .invalidPhoneNumber(let message), .invalidScenario(let message): message
        }
    }
}
