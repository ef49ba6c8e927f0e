import CCairoPango
import ChatStories

/// An on-screen keyboard drawn once and painted under the input bar while the sender types.
final class KeyboardImage {
    let canvas: ChatCanvas
    let panel: RGBColor
    private var keys: [Character: (x: Double, y: Double, width: Double, height: Double)] = [:]
    private static let rows = ["QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"]

    init(geometry: ChatGeometry, dark: Bool) {
        canvas = ChatCanvas(width: Int(geometry.columnWidth), height: Int(geometry.keyboard))
        panel = dark ? RGBColor(red: 0.17, green: 0.17, blue: 0.18) : RGBColor(red: 0.82, green: 0.83, blue: 0.85)
        let key = dark ? RGBColor(red: 0.36, green: 0.36, blue: 0.38) : RGBColor(red: 1, green: 1, blue: 1)
        let label = dark ? RGBColor(red: 1, green: 1, blue: 1) : RGBColor(red: 0, green: 0, blue: 0)
        let width = geometry.columnWidth
        let height = geometry.keyboard
        canvas.fill(x: 0, y: 0, width: width, height: height, color: panel)
        let gap = 12.0
        let keyWidth = (width - 11 * gap) / 10
        let keyHeight = (height - 5 * gap) / 4
        let font = TextStyle(pixels: min(keyHeight * 0.42, 44))
        for (rowIndex, row) in Self.rows.enumerated() {
            let rowWidth = Double(row.count) * keyWidth + Double(row.count - 1) * gap
            var x = (width - rowWidth) / 2
            let y = gap + Double(rowIndex) * (keyHeight + gap)
            for letter in row {
                canvas.roundedRectangle(x: x, y: y, width: keyWidth, height: keyHeight, radius: 10, color: key)
                let text = canvas.layout(String(letter), font: font, wrapWidth: nil)
                let size = text.size
                text.draw(x: x + (keyWidth - size.width) / 2, y: y + (keyHeight - size.height) / 2, color: label)
                keys[letter] = (x, y, keyWidth, keyHeight)
                x += keyWidth + gap
            }
        }
        let y = gap + 3 * (keyHeight + gap)
        let spaceWidth = 5 * keyWidth + 4 * gap
        let spaceX = (width - spaceWidth) / 2
        canvas.roundedRectangle(x: spaceX, y: y, width: spaceWidth, height: keyHeight, radius: 10, color: key)
        let space = canvas.layout("space", font: font, wrapWidth: nil)
        space.draw(x: spaceX + (spaceWidth - space.size.width) / 2, y: y + (keyHeight - space.size.height) / 2, color: label)
        keys[" "] = (spaceX, y, spaceWidth, keyHeight)
    }

    /// The key that types `character`, if the keyboard shows one.
    func key(for character: Character) -> (x: Double, y: Double, width: Double, height: Double)? {
        keys[Character(character.uppercased())] ?? keys[character]
    }
}
