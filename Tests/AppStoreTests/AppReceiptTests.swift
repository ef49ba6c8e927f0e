import AppStore
import AppStoreTestSupport
import Foundation
import Testing
@_spi(CMS) import X509

/// The transaction ids in a legacy app receipt (PKCS#7), as the app as written sends it.
@Suite struct AppReceiptTests {
    let ca: AppStoreTestCA
    static let day: TimeInterval = 86_400
    static let purchases = [
        AppReceipt.Purchase(productID: AppStoreFixtures.basicWeekly, transactionID: "2000000000000101", originalTransactionID: "2000000000000101",
                            purchaseDate: Date(timeIntervalSince1970: 1_700_000_000)),
        AppReceipt.Purchase(productID: AppStoreFixtures.addonCalls, transactionID: "2000000000000150", originalTransactionID: "2000000000000150",
                            purchaseDate: Date(timeIntervalSince1970: 1_700_000_000 + 10 * day)),
        // A renewal, the latest period of the subscription.
        AppReceipt.Purchase(productID: AppStoreFixtures.basicWeekly, transactionID: "2000000000000102", originalTransactionID: "2000000000000101",
                            purchaseDate: Date(timeIntervalSince1970: 1_700_000_000 + 7 * day)),
    ]

    init() throws {
        ca = try AppStoreTestCA.make()
    }

    @Test("a receipt signed into PKCS#7 is read: its bundle id and every in-app purchase", arguments: [AppStoreTestCA.ReceiptForm.der, .berIndefinite])
    func reads(_ form: AppStoreTestCA.ReceiptForm) throws {
        let text = try ca.appReceipt(AppReceipt(bundleID: AppStoreFixtures.bundleID, purchases: Self.purchases), form: form)
        let receipt = try AppReceipt(base64: text)
        #expect(receipt.bundleID == AppStoreFixtures.bundleID)
        #expect(receipt.purchases == Self.purchases)
        // The latest period of the subscription; the add-on's own.
        #expect(receipt.latestPurchase(of: AppStoreFixtures.basicWeekly)?.transactionID == "2000000000000102")
        #expect(receipt.latestPurchase(of: AppStoreFixtures.addonCalls)?.transactionID == "2000000000000150")
        #expect(receipt.latestPurchase(of: AppStoreFixtures.premiumMonthly) == nil)
    }

    @Test("the BER form is really another encoding: indefinite lengths, the content in pieces")
    func berIsIndefinite() throws {
        let receipt = AppReceipt(bundleID: AppStoreFixtures.bundleID, purchases: Self.purchases)
        let der = try #require(Data(base64Encoded: try ca.appReceipt(receipt, form: .der)))
        let ber = try #require(Data(base64Encoded: try ca.appReceipt(receipt, form: .berIndefinite)))
        #expect(der.prefix(2) != Data([0x30, 0x80]))
        #expect(ber.prefix(2) == Data([0x30, 0x80]))
        #expect(ber.contains(Data([0x24, 0x80])))  // a constructed OCTET STRING
    }

    @Test("a receipt as long lines of base64 (line breaks) is read; one with no purchases has none")
    func lineBreaksAndNoPurchases() throws {
        let text = try ca.appReceipt(AppReceipt(bundleID: AppStoreFixtures.bundleID, purchases: []))
        let wrapped = stride(from: 0, to: text.count, by: 76).map { start in
            String(text.dropFirst(start).prefix(76))
        }.joined(separator: "\r\n")
        let receipt = try AppReceipt(base64: wrapped)
        #expect(receipt.bundleID == AppStoreFixtures.bundleID && receipt.purchases.isEmpty)
    }

    @Test("what is not an app receipt is refused with a reason", arguments: [
        "", "not base64 at all!", Data("hello, world".utf8).base64EncodedString(),
        // A DER SEQUENCE holding another OID than signedData.
        Data([0x30, 0x0B, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]).base64EncodedString(),
    ])
    func refusesOthers(_ text: String) {
        #expect(throws: AppReceipt.Unreadable.self) { try AppReceipt(base64: text) }
    }

    @Test("a detached signature (no content) and a cut receipt are refused")
    func detachedAndCut() throws {
        let text = try ca.appReceipt(AppReceipt(bundleID: AppStoreFixtures.bundleID, purchases: Self.purchases))
        let bytes = try #require(Data(base64Encoded: text))
        #expect(throws: AppReceipt.Unreadable.self) { try AppReceipt(bytes: [UInt8](bytes.prefix(bytes.count / 2))) }
        let detached = try CMS.sign(Data("content elsewhere".utf8), signatureAlgorithm: .ecdsaWithSHA256, certificate: ca.leaf,
                                    privateKey: Certificate.PrivateKey(ca.leafKey), detached: true)
        let error = #expect(throws: AppReceipt.Unreadable.self) { try AppReceipt(bytes: detached) }
        #expect(error?.reason.contains("detached") == true)
    }
}
