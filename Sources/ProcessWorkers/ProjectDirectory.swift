import Foundation

/// Finds the StoryVoice checkout whose `.venv/` and `scripts/` the Python workers run from.
public enum ProjectDirectory {
    /// The first directory holding `relativePath`, searching up from the current directory,
    /// then up from the running executable (a `.build/debug/storyvoice`).
    public static func locate(containing relativePath: String) -> URL? {
        let starts = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            URL(fileURLWithPath: CommandLine.arguments.first ?? "/").deletingLastPathComponent(),
        ]
        for start in starts {
            var directory = start.standardizedFileURL
            while true {
                if FileManager.default.fileExists(atPath: directory.appendingPathComponent(relativePath).path) { return directory }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        return nil
    }
}
