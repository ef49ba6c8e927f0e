/// Errors from the persistence layer, each saying what to do about it.
public enum PersistenceError: Error, Equatable, CustomStringConvertible {
    case invalidDatabaseURL(reason: String)
    case invalidSecretKey(reason: String)
    case secretKeyFileUnreadable(path: String, reason: String)
    case decryptionFailed
    case emailTaken

    public var description: String {
        switch self {
        case .invalidDatabaseURL(let reason):
            "DATABASE_URL is not a valid PostgreSQL URL (\(reason)); use postgres://user:password@host:5432/database."
        case .invalidSecretKey(let reason):
            "STORYVOICE_SECRET_KEY is invalid: \(reason). Generate one with `head -c 32 /dev/urandom | base64`."
        case .secretKeyFileUnreadable(let path, let reason):
            "The secret key file at \(path) could not be used (\(reason)); fix its permissions or set STORYVOICE_SECRET_KEY."
        case .decryptionFailed:
            "A stored API key could not be decrypted: the server's secret key changed. Enter the key again in settings."
        case .emailTaken:
            "An account with this email already exists."
        }
    }
}
