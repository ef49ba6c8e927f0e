/// A forgiving element tree for the small XML files of an EPUB (container.xml, the OPF package,
/// nav.xhtml, toc.ncx). Built on `HTMLTokenizer`, so undeclared entities, stray tags and missing
/// end tags — all common in real EPUBs — degrade gracefully instead of failing the import.
/// Element names are lowercased and lose their namespace prefix (`dc:title` is `title`);
/// attribute names are lowercased and keep theirs (`epub:type`).
struct MarkupElement: Sendable {
    enum Node: Sendable {
        case element(MarkupElement)
        case text(String)
    }

    var name: String
    var attributes: [String: String]
    var children: [Node] = []

    static func parse(_ markup: String) -> MarkupElement {
        var stack = [MarkupElement(name: "#document", attributes: [:])]
        var tokenizer = HTMLTokenizer(markup)
        while let token = tokenizer.next() {
            switch token {
            case .startTag(let name, let attributes, let selfClosing):
                let element = MarkupElement(name: name, attributes: attributes)
                if selfClosing || voidElements.contains(name) {
                    stack[stack.count - 1].children.append(.element(element))
                } else {
                    // At `maxDepth` the deepest open element is closed first: a hostile file cannot
                    // make the tree (and the recursive walks over it) deep enough to exhaust the stack.
                    if stack.count >= maxDepth {
                        let closed = stack.removeLast()
                        stack[stack.count - 1].children.append(.element(closed))
                    }
                    stack.append(element)
                }
            case .endTag(let name):
                // Close up to the matching open element; an end tag matching nothing is ignored.
                guard let match = stack.lastIndex(where: { $0.name == name }), match > 0 else { continue }
                while stack.count > match {
                    let closed = stack.removeLast()
                    stack[stack.count - 1].children.append(.element(closed))
                }
            case .text(let scalars):
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                stack[stack.count - 1].children.append(.text(String(view)))
            }
        }
        while stack.count > 1 {
            let closed = stack.removeLast()
            stack[stack.count - 1].children.append(.element(closed))
        }
        return stack[0]
    }

    static let maxDepth = 200

    private static let voidElements: Set<String> = ["br", "hr", "img", "meta", "link", "input", "col", "area", "base", "wbr"]

    var elements: [MarkupElement] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// All descendants named `name`, in document order.
    func descendants(named name: String) -> [MarkupElement] {
        var found: [MarkupElement] = []
        collect(name, into: &found)
        return found
    }

    private func collect(_ name: String, into found: inout [MarkupElement]) {
        for child in elements {
            if child.name == name { found.append(child) }
            child.collect(name, into: &found)
        }
    }

    func firstDescendant(named name: String) -> MarkupElement? {
        for child in elements {
            if child.name == name { return child }
            if let found = child.firstDescendant(named: name) { return found }
        }
        return nil
    }

    /// All text inside, whitespace collapsed.
    var textContent: String {
        var text = ""
        appendText(to: &text)
        return text.collapsingWhitespace
    }

    private func appendText(to text: inout String) {
        for child in children {
            switch child {
            case .text(let string): text += string
            case .element(let element):
                // Inline elements join words ("Chap<em>ter</em>"); block elements separate them.
                let block = HTMLTextConverter.blockElements.contains(element.name)
                if block { text += " " }
                element.appendText(to: &text)
                if block { text += " " }
            }
        }
    }

    subscript(attribute name: String) -> String? { attributes[name] }
}
