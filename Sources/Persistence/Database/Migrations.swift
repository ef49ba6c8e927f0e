import FluentKit
import FluentSQL

/// Every migration, in the order they first ran (so a database made by any earlier version
/// migrates the same way). Each has an explicit, stable `name`: Fluent would otherwise name
/// migrations after their Swift type and module, and renaming either would re-run them. A new
/// product area adds its migrations at the end, in its own folder.
public enum DatabaseMigrations {
    public static var all: [any Migration] {
        [
            CreateUsers(),
            CreateRefreshTokens(),
            CreateUserSettings(),
            CreateProviderKeys(),
            CreateStories(),
            CreateJobs(),
            AddStoryRenders(),
            AddStoryVersions(),
            AddStoryChapters(),
            AddNarrationVoices(),
            CreateVoiceConversations(),
            CreateChatConversations(),
            CreateChatExports(),
            CreateEntitlements(),
            CreateJourneys(),
            CreateJourneyParts(),
            CreateCallAccounts(),
            CreatePhoneCalls(),
            CreateScheduledCalls(),
            CreateStoreTransactions(),
            CreateStoreNotifications(),
            CreateCustomScenarios(),
            AddChatConversationVersions(),
            CreateUserLocks(),
        ]
    }
}

func createIndex(_ name: String, on table: String, columns: [String], in database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    var builder = sql.create(index: name).on(table)
    for column in columns { builder = builder.column(column) }
    try await builder.run()
}
