import Logging
import Synchronization

/// Collects every log line (message and metadata, as a log file would show them) so tests can
/// assert what was and was not logged.
public final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    public var text: String { lines.withLock { $0.joined(separator: "\n") } }
    public var count: Int { lines.withLock { $0.count } }

    /// A logger at trace level writing only into this capture.
    public func logger(label: String = "test") -> Logger {
        var logger = Logger(label: label) { label in Handler(label: label, capture: self) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    fileprivate struct Handler: LogHandler {
        let label: String
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
            let rendered = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let error = event.error.map { " error=\($0)" } ?? ""
            capture.append("\(event.level) \(label): \(event.message) \(rendered)\(error)")
        }
    }
}
