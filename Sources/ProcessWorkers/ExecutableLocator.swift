import Foundation

/// Finds engine executables on `PATH`, the way a shell would.
public struct ExecutableLocator: Sendable {
    /// The directories searched, in order.
    public var searchPath: [String]

    public init(searchPath: [String]) {
        self.searchPath = searchPath
    }

    /// Searches the current process's `PATH` (or the usual system directories if it is unset).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        self.init(searchPath: path.split(separator: ":").map(String.init).filter { !$0.isEmpty })
    }

    /// The absolute path of `name`, or nil when no directory on the search path holds an
    /// executable of that name. A name containing `/` is checked as given.
    public func locate(_ name: String) -> String? {
        let fileManager = FileManager.default
        if name.contains("/") {
            return fileManager.isExecutableFile(atPath: name) ? name : nil
        }
        for directory in searchPath {
            let candidate = (directory as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
               fileManager.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return nil
    }
}
