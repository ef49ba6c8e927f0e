/// HTML character references: the named ones stories use, plus numeric `&#...;` and `&#x...;`.
enum HTMLEntities {
    /// The scalars a reference name (without `&` and `;`) stands for.
    static func named(_ name: String) -> [Unicode.Scalar]? {
        if let value = table[name] { return [value] }
        return nil
    }

    /// Names browsers accept even without the closing semicolon (old pages rely on it).
    static let legacyWithoutSemicolon: Set<String> = ["amp", "lt", "gt", "quot", "nbsp", "copy", "reg"]

    /// A numeric reference's scalar. As browsers do, 0x80–0x9F means Windows-1252 (`&#147;` is “),
    /// and invalid code points become U+FFFD.
    static func numeric(_ value: UInt32) -> Unicode.Scalar {
        if value >= 0x80, value <= 0x9F { return TextDecoding.windows1252Scalar(UInt8(value)) }
        if value == 0 { return "\u{FFFD}" }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    private static let table: [String: Unicode.Scalar] = {
        var table: [String: Unicode.Scalar] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'",
            "nbsp": " ", "ensp": " ", "emsp": " ", "thinsp": " ", "hairsp": " ",
            "shy": "\u{AD}", "zwnj": "\u{200C}", "zwj": "\u{200D}", "lrm": "\u{200E}", "rlm": "\u{200F}",
            "ndash": "\u{2013}", "mdash": "\u{2014}", "horbar": "\u{2015}", "minus": "\u{2212}",
            "lsquo": "\u{2018}", "rsquo": "\u{2019}", "sbquo": "\u{201A}",
            "ldquo": "\u{201C}", "rdquo": "\u{201D}", "bdquo": "\u{201E}",
            "lsaquo": "\u{2039}", "rsaquo": "\u{203A}", "prime": "\u{2032}", "Prime": "\u{2033}",
            "hellip": "\u{2026}", "bull": "\u{2022}", "dagger": "\u{2020}", "Dagger": "\u{2021}",
            "permil": "\u{2030}", "euro": "\u{20AC}", "trade": "\u{2122}", "larr": "\u{2190}", "rarr": "\u{2192}",
            "OElig": "\u{152}", "oelig": "\u{153}", "Scaron": "\u{160}", "scaron": "\u{161}",
            "Yuml": "\u{178}", "fnof": "\u{192}", "circ": "\u{2C6}", "tilde": "\u{2DC}",
            "star": "\u{2606}", "hearts": "\u{2665}", "infin": "\u{221E}", "ne": "\u{2260}",
            "le": "\u{2264}", "ge": "\u{2265}", "asymp": "\u{2248}",
        ]
        // HTML's Latin-1 names are defined in code-point order from U+00A0 (nbsp) to U+00FF (yuml).
        let latin1 = """
            nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr \
            deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest \
            Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml \
            ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig \
            agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml \
            eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml
            """.split(separator: " ")
        for (offset, name) in latin1.enumerated() where table[String(name)] == nil {
            table[String(name)] = Unicode.Scalar(UInt32(0xA0 + offset))
        }
        // Greek letters appear in older texts' epigraphs.
        let greek = """
            Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho _ Sigma Tau \
            Upsilon Phi Chi Psi Omega
            """.split(separator: " ")
        for (offset, name) in greek.enumerated() where name != "_" {
            table[String(name)] = Unicode.Scalar(UInt32(0x391 + offset))
            table[String(name).lowercased()] = Unicode.Scalar(UInt32(0x3B1 + offset))
        }
        table["sigmaf"] = "\u{3C2}"
        return table
    }()
}
