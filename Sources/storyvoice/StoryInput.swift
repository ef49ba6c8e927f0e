import ArgumentParser
import Foundation
import StoryModel
import StoryText

/// The story file argument and import limits shared by the commands that read a story.
struct StoryInput: ParsableArguments {
    @Argument(help: "The story: a .txt, .md, .html or .epub file.")
    var file: String

    @Option(name: .customLong("max-size"), help: "Largest story text to accept, in MB.")
    var maxSizeMB: Int = 20

    func load() throws -> StoryDocument {
        let limits = ImportLimits(maxTextBytes: maxSizeMB * 1_000_000)
        do {
            return try StoryImporter.load(contentsOf: URL(fileURLWithPath: file), limits: limits)
        } catch let error as ImportError {
            throw UserFacingError("\(file): \(error)")
        }
    }
}

/// Errors printed as they are, without ArgumentParser's usage text.
struct UserFacingError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
