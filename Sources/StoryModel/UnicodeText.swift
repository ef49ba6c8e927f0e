/// Random access to a string by Unicode-scalar offset, the unit of every span in StoryVoice.
public struct ScalarText: Sendable {
    public let scalars: [Unicode.Scalar]

    public init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    public var count: Int { scalars.count }

    public subscript(offset: Int) -> Unicode.Scalar { scalars[offset] }

    /// The text of `[start, end)`, clamped to the text's bounds.
    public func string(_ start: Int, _ end: Int) -> String {
        let lower = max(0, min(start, count)), upper = max(lower, min(end, count))
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[lower..<upper])
        return String(view)
    }
}
