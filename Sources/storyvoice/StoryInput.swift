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
            let url = URL(fileURLWithPath: file)
            let document = try StoryImporter.load(contentsOf: url, limits: limits)
            if ["txt", "text", "md", "markdown", ""].contains(url.pathExtension.lowercased()),
               let data = try? Data(contentsOf: url), let note = StoryImporter.encodingNote(for: data) {
                FileHandle.standardError.write(Data("note: \(url.lastPathComponent): \(note).\n".utf8))
            }
            return document
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
