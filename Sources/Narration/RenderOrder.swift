/// The order a whole book's lines are rendered in: grouped by engine, engines in the order the
/// book first hears them, each engine's lines in book order.
///
/// Issue 47: rendered in book order, the narrator's, the men's and the leading roles' engines
/// took turns line by line, so every engine's workers stayed alive at once (two Piper, two
/// hibari and the Kokoro worker: 2.1–2.2 GB for one export). One engine at a time, with the
/// last one's idle workers stopped before the next starts, holds only one pool's memory.
public enum RenderOrder {
    public static func byEngine<Item>(_ items: [Item], engine: (Item) -> String) -> [[Item]] {
        var groups: [[Item]] = []
        var index: [String: Int] = [:]
        for item in items {
            let key = engine(item)
            if let position = index[key] {
                groups[position].append(item)
            } else {
                index[key] = groups.count
                groups.append([item])
            }
        }
        return groups
    }
}
