import Foundation
import SwiftASN1

/// An app receipt, as an app sends it (`AppStore.receiptData()`, or the file at
/// `appStoreReceiptURL`, in base64): a PKCS#7 (CMS) signed-data container whose content is a SET
/// of receipt attributes, one of them (type 17) for each in-app purchase.
///
/// It is read as Apple's App Store Server Library reads it (`ReceiptUtility`): only for the
/// transaction ids, which are then looked up with the App Store Server API, whose answer is
/// signed by Apple and verified (`AppStoreVerifier`). The container's own signature is not
/// checked: nothing read here is trusted beyond naming the transaction to ask Apple about, so a
/// forged receipt can only name a transaction Apple then answers for. Real receipts are BER with
/// indefinite lengths and their content a constructed OCTET STRING; both are read.
public struct AppReceipt: Sendable, Equatable {
    /// One in-app purchase record (attribute 17), the fields a lookup needs.
    public struct Purchase: Sendable, Equatable {
        public var productID: String?
        public var transactionID: String?
        public var originalTransactionID: String?
        public var purchaseDate: Date?

        public init(productID: String?, transactionID: String?, originalTransactionID: String? = nil, purchaseDate: Date? = nil) {
            self.productID = productID
            self.transactionID = transactionID
            self.originalTransactionID = originalTransactionID
            self.purchaseDate = purchaseDate
        }
    }

    /// Why text is not an app receipt, in a few words.
    public struct Unreadable: Error, Equatable, Sendable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// Attribute types (Apple's "Receipt Fields").
    public enum Field {
        public static let bundleID: Int64 = 2
        public static let inAppPurchase: Int64 = 17
        public static let productID: Int64 = 1702
        public static let transactionID: Int64 = 1703
        public static let purchaseDate: Int64 = 1704
        public static let originalTransactionID: Int64 = 1705
    }

    /// PKCS#7 signedData and data (RFC 5652).
    static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 2]
    static let data: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 1]

    public var bundleID: String?
    /// In the receipt's order.
    public var purchases: [Purchase]

    public init(bundleID: String?, purchases: [Purchase]) {
        self.bundleID = bundleID
        self.purchases = purchases
    }

    /// Reads base64 text (line breaks allowed).
    public init(base64 text: String) throws(Unreadable) {
        let compact = text.filter { !$0.isWhitespace }
        guard !compact.isEmpty, let bytes = Data(base64Encoded: compact) else { throw Unreadable(reason: "it is not base64") }
        try self.init(bytes: [UInt8](bytes))
    }

    /// Reads the container's bytes.
    public init(bytes: [UInt8]) throws(Unreadable) {
        do {
            let content = try Self.content(of: BER.parse(bytes))
            var bundleID: String?
            var purchases: [Purchase] = []
            for (type, value) in try Self.attributes(BER.parse(content)) {
                switch type {
                case Field.bundleID: bundleID = try? Self.string(value)
                case Field.inAppPurchase: purchases.append(try Self.purchase(value))
                default: break
                }
            }
            self.init(bundleID: bundleID, purchases: purchases)
        } catch let error as Unreadable {
            throw error
        } catch {
            throw Unreadable(reason: "it is not a PKCS#7 app receipt (\(error))")
        }
    }

    /// The purchase to look up for `productID`: the latest of that product's (a subscription's
    /// receipt lists every period; the newest is the one just bought), else nil.
    public func latestPurchase(of productID: String) -> Purchase? {
        let matching = purchases.enumerated().filter { $0.element.productID == productID && $0.element.transactionID != nil }
        // By purchase date, then by order in the receipt.
        return matching.max { a, b in
            let (dateA, dateB) = (a.element.purchaseDate ?? .distantPast, b.element.purchaseDate ?? .distantPast)
            return dateA == dateB ? a.offset < b.offset : dateA < dateB
        }?.element
    }

    // MARK: The container

    /// ContentInfo { signedData, [0] SignedData { version, digests, EncapsulatedContentInfo { data, [0] OCTET STRING }, … } }.
    private static func content(of root: ASN1Node) throws -> [UInt8] {
        try BER.sequence(root, identifier: .sequence) { nodes in
            guard try ASN1ObjectIdentifier(berEncoded: &nodes) == signedData else { throw Unreadable(reason: "it is not PKCS#7 signed data") }
            return try BER.explicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { signed in
                try BER.sequence(signed, identifier: .sequence) { fields in
                    _ = fields.next()  // version
                    _ = fields.next()  // digest algorithms
                    guard let encapsulated = fields.next() else { throw Unreadable(reason: "the signed data has no content") }
                    // The certificates, CRLs and signer infos that follow are not read.
                    while fields.next() != nil {}
                    return try BER.sequence(encapsulated, identifier: .sequence) { content in
                        guard try ASN1ObjectIdentifier(berEncoded: &content) == data else { throw Unreadable(reason: "the signed content is not data") }
                        guard let payload = try BER.optionalExplicitlyTagged(&content, tagNumber: 0, tagClass: .contextSpecific, { node in
                            try ASN1OctetString(berEncoded: node)
                        }) else { throw Unreadable(reason: "the signed data is detached: the receipt's content is missing") }
                        return [UInt8](payload.bytes)
                    }
                }
            }
        }
    }

    /// A SET of `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`.
    private static func attributes(_ node: ASN1Node) throws -> [(Int64, [UInt8])] {
        guard node.identifier == .set, case .constructed(let children) = node.content else {
            throw Unreadable(reason: "the receipt's content is not a set of attributes")
        }
        return try children.map { child in
            try BER.sequence(child, identifier: .sequence) { fields in
                let type = try Int64(berEncoded: &fields)
                _ = fields.next()  // version
                let value = try ASN1OctetString(berEncoded: &fields)
                return (type, [UInt8](value.bytes))
            }
        }
    }

    private static func purchase(_ value: [UInt8]) throws -> Purchase {
        var purchase = Purchase(productID: nil, transactionID: nil)
        for (type, field) in try attributes(BER.parse(value)) {
            switch type {
            case Field.productID: purchase.productID = try? string(field)
            case Field.transactionID: purchase.transactionID = try? string(field)
            case Field.originalTransactionID: purchase.originalTransactionID = try? string(field)
            case Field.purchaseDate: purchase.purchaseDate = (try? string(field)).flatMap(date)
            default: break
            }
        }
        return purchase
    }

    /// A field's value: a DER UTF8String or IA5String.
    private static func string(_ value: [UInt8]) throws -> String {
        let node = try BER.parse(value)
        switch node.identifier {
        case .utf8String: return String(try ASN1UTF8String(berEncoded: node))
        case .ia5String: return String(try ASN1IA5String(berEncoded: node))
        default: throw Unreadable(reason: "a field is not a string")
        }
    }

    /// Apple writes dates as RFC 3339 (`2024-05-01T12:00:00Z`).
    private static func date(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }
}
