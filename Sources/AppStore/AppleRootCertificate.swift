import Foundation
import X509

/// The pinned trust anchor: Apple Root CA - G3 (ECC P-384, valid 2014-04-30 to 2039-04-30),
/// shipped as `AppleRootCA-G3.cer` (DER) in this module's bundle. Its SHA-256 fingerprint is
/// ``fingerprint``; the tests check the bundled bytes against it.
public enum AppleRootCertificate {
    public static let fingerprint = "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179"

    /// The certificate's DER bytes from the bundle.
    public static func der() throws(AppStoreError) -> Data {
        guard let url = Bundle.module.url(forResource: "AppleRootCA-G3", withExtension: "cer"),
              let bytes = try? Data(contentsOf: url)
        else {
            throw .notConfigured("Apple's root certificate (AppleRootCA-G3.cer) is missing from the AppStore module's resources — reinstall the server")
        }
        return bytes
    }

    /// Apple Root CA - G3, parsed.
    public static func g3() throws(AppStoreError) -> Certificate {
        let bytes = try der()
        do {
            return try Certificate(derEncoded: Array(bytes))
        } catch {
            throw .notConfigured("the bundled AppleRootCA-G3.cer is not a certificate — reinstall the server")
        }
    }
}
