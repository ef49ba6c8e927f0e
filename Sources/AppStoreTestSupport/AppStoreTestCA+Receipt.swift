import AppStore
import Foundation
import SwiftASN1
@_spi(CMS) import X509

extension AppStoreTestCA {
    /// How the container is encoded: DER, or as Apple's receipts are (BER: every constructed
    /// element of indefinite length, OCTET STRINGs in constructed pieces).
    public enum ReceiptForm: Sendable {
        case der
        case berIndefinite
    }

    /// `receipt` as an app sends it (`AppStore.receiptData()`, base64): its fields written as
    /// Apple's receipt attributes (type, version, value), the in-app purchases as attribute 17
    /// each, signed into PKCS#7 signed data with the content attached by this CA's leaf, its
    /// intermediate and leaf certificates included. Written independently of `AppReceipt`'s reader.
    public func appReceipt(_ receipt: AppReceipt, form: ReceiptForm = .der) throws -> String {
        var fields: [(Int64, [UInt8])] = [(AppReceipt.Field.bundleID, try Self.der(ASN1UTF8String(receipt.bundleID ?? "")))]
        fields.append((3, try Self.der(ASN1UTF8String("1.0"))))  // the app's version: not read
        for purchase in receipt.purchases {
            var inApp: [(Int64, [UInt8])] = [(1701, try Self.der(Int64(1)))]  // quantity: not read
            if let product = purchase.productID { inApp.append((AppReceipt.Field.productID, try Self.der(ASN1UTF8String(product)))) }
            if let id = purchase.transactionID { inApp.append((AppReceipt.Field.transactionID, try Self.der(ASN1UTF8String(id)))) }
            if let original = purchase.originalTransactionID {
                inApp.append((AppReceipt.Field.originalTransactionID, try Self.der(ASN1UTF8String(original))))
            }
            if let date = purchase.purchaseDate {
                inApp.append((AppReceipt.Field.purchaseDate, try Self.der(ASN1IA5String(date.formatted(.iso8601)))))
            }
            fields.append((AppReceipt.Field.inAppPurchase, try Self.attributeSet(inApp)))
        }
        let signed = try CMS.sign(
            Self.attributeSet(fields), signatureAlgorithm: .ecdsaWithSHA256, additionalIntermediateCertificates: [intermediate],
            certificate: leaf, privateKey: Certificate.PrivateKey(leafKey), detached: false)
        let bytes = form == .der ? signed : Self.indefinite(try DER.parse(signed))
        return Data(bytes).base64EncodedString()
    }

    /// `SET OF SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`.
    static func attributeSet(_ fields: [(Int64, [UInt8])]) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .set) { set in
            for (type, value) in fields {
                try set.appendConstructedNode(identifier: .sequence) { attribute in
                    try attribute.serialize(type)
                    try attribute.serialize(Int64(1))
                    try attribute.serialize(ASN1OctetString(contentBytes: value[...]))
                }
            }
        }
        return serializer.serializedBytes
    }

    static func der(_ value: some DERSerializable) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(value)
        return serializer.serializedBytes
    }

    /// `node` re-encoded with indefinite lengths, and its OCTET STRINGs cut into two pieces
    /// each (a constructed OCTET STRING), as BER allows and Apple's receipts use. Tags are
    /// single-byte (below 31), as everywhere in a receipt.
    static func indefinite(_ node: ASN1Node) -> [UInt8] {
        let tag = node.encodedBytes.first ?? 0
        switch node.content {
        case .constructed(let children):
            return [tag, 0x80] + children.flatMap(indefinite) + [0x00, 0x00]
        case .primitive(let bytes) where node.identifier == .octetString && bytes.count >= 2:
            let middle = bytes.startIndex + bytes.count / 2
            return [0x24, 0x80] + primitive(0x04, bytes[..<middle]) + primitive(0x04, bytes[middle...]) + [0x00, 0x00]
        case .primitive:
            return [UInt8](node.encodedBytes)
        }
    }

    private static func primitive(_ tag: UInt8, _ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var length: [UInt8]
        if bytes.count < 128 {
            length = [UInt8(bytes.count)]
        } else {
            length = withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { [UInt8]($0) }
            while length.first == 0 { length.removeFirst() }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return [tag] + length + bytes
    }
}
