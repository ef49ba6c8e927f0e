/// A credential (API key) that never prints itself.
///
/// `description`, `debugDescription` and reflection all show `<redacted>`, so a key that ends
/// up in a log line, an error message or a `dump` by accident stays secret.
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key itself; read it only to put it in a request header.
    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "Secret(<redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
