/// The masked form of an API key, e.g. `sk-…abcd`: enough to recognise which key is stored,
/// too little to use it.
public enum APIKeyMask {
    public static func mask(_ key: String) -> String {
        let trimmed = Array(key.trimmingCharacters(in: .whitespacesAndNewlines))
        guard trimmed.count >= 12 else { return "…" }
        let suffix = String(trimmed.suffix(4))
        // Keep a vendor prefix such as "sk-" or "sk_" when the key has one early on.
        if let dash = trimmed.prefix(4).firstIndex(where: { $0 == "-" || $0 == "_" }) {
            return String(trimmed[...dash]) + "…" + suffix
        }
        return "…" + suffix
    }
}
