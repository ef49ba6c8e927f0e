import Foundation

/// A look for the bubbles. The ids are the API's; the names shown are StoryVoice's own, so the
/// looks stay looks and never pose as a messenger app (no names, no logos).
public enum ChatTheme: String, Sendable, Hashable, Codable, CaseIterable {
    case imessage, whatsapp, messenger, discord

    public var displayName: String {
        switch self {
        case .imessage: "Blue bubbles"
        case .whatsapp: "Green paper"
        case .messenger: "Bright blue"
        case .discord: "Night club"
        }
    }

    /// Free accounts have the first look; the others come with premium.
    public var isPremium: Bool { self != .imessage }

    public func palette(dark: Bool) -> ChatPalette {
        switch (self, dark) {
        case (.imessage, false):
            ChatPalette(sender: "#007AFF", receiver: "#E5E5EA", background: "#FFFFFF", senderText: "#FFFFFF", receiverText: "#000000", bar: "#F6F6F6", barText: "#000000", secondaryText: "#8E8E93")
        case (.imessage, true):
            ChatPalette(sender: "#0A84FF", receiver: "#26252A", background: "#000000", senderText: "#FFFFFF", receiverText: "#FFFFFF", bar: "#1C1C1E", barText: "#FFFFFF", secondaryText: "#8E8E93")
        case (.whatsapp, false):
            ChatPalette(sender: "#DCF8C6", receiver: "#FFFFFF", background: "#ECE5DD", senderText: "#000000", receiverText: "#000000", bar: "#F0F0F0", barText: "#000000", secondaryText: "#667781")
        case (.whatsapp, true):
            ChatPalette(sender: "#005C4B", receiver: "#202C33", background: "#0B141A", senderText: "#E9EDEF", receiverText: "#E9EDEF", bar: "#1F2C34", barText: "#E9EDEF", secondaryText: "#8696A0")
        case (.messenger, false):
            ChatPalette(sender: "#0084FF", receiver: "#E4E6EB", background: "#FFFFFF", senderText: "#FFFFFF", receiverText: "#000000", bar: "#FFFFFF", barText: "#050505", secondaryText: "#65676B")
        case (.messenger, true):
            ChatPalette(sender: "#0084FF", receiver: "#303030", background: "#000000", senderText: "#FFFFFF", receiverText: "#E4E6EB", bar: "#242526", barText: "#E4E6EB", secondaryText: "#B0B3B8")
        case (.discord, false):
            ChatPalette(sender: "#5865F2", receiver: "#F2F3F5", background: "#FFFFFF", senderText: "#FFFFFF", receiverText: "#2E3338", bar: "#E3E5E8", barText: "#060607", secondaryText: "#5C5E66")
        case (.discord, true):
            ChatPalette(sender: "#5865F2", receiver: "#2F3136", background: "#36393F", senderText: "#FFFFFF", receiverText: "#DCDDDE", bar: "#202225", barText: "#FFFFFF", secondaryText: "#B9BBBE")
        }
    }
}

/// A look's colours in one mode, each `#RRGGBB`.
public struct ChatPalette: Sendable, Hashable, Codable {
    public var sender: String
    public var receiver: String
    public var background: String
    public var senderText: String
    public var receiverText: String
    /// The header and input bars.
    public var bar: String
    public var barText: String
    /// Names above bubbles, the input bar's placeholder, the typing dots.
    public var secondaryText: String

    enum CodingKeys: String, CodingKey {
        case sender, receiver, background, bar
        case senderText = "sender_text"
        case receiverText = "receiver_text"
        case barText = "bar_text"
        case secondaryText = "secondary_text"
    }
}

/// `#RRGGBB` (or `RRGGBB`) as components in 0…1.
public struct RGBColor: Sendable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double

    public init?(hex: String) {
        var digits = Substring(hex.trimmingCharacters(in: .whitespaces))
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        red = Double((value >> 16) & 0xFF) / 255
        green = Double((value >> 8) & 0xFF) / 255
        blue = Double(value & 0xFF) / 255
    }

    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Perceived brightness (Rec. 601 luma), to pick readable text on a colour.
    public var luma: Double { 0.299 * red + 0.587 * green + 0.114 * blue }
}
