import ObjectStorage

/// A finished file the store would not take: the job is tried again, and says why.
public struct StoreUnavailable: Error, CustomStringConvertible {
    public var error: ArtifactError
    /// What was made ("The audiobook").
    public var what: String

    public init(error: ArtifactError, what: String) {
        self.error = error
        self.what = what
    }

    public var description: String {
        "\(what) was made, but the server's file store did not answer, so it could not be kept. It is tried again by itself in a moment."
    }
}
