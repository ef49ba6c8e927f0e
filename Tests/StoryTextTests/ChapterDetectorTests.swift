import StoryModel
import Testing
@testable import StoryText
