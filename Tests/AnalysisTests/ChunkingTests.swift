import Analysis
import Foundation
import LanguageModels
import StoryModel
import Testing
import TestSupport

/// A long book: `chapters` chapters of `quotes` quotations each; every third is uncertain.
func longBook(chapters: Int = 12, quotes: Int = 24) -> Fixture {
    let speakers = ["c1", "c2", "c3"]
    return Fixture(title: "A Long Book", characters: cast, chapters: (0..<chapters).map { chapter in
        [.narration("It was the \(chapter + 1)th morning of the long journey, and the road ran on between the hedges.")]
            + (0..<quotes).map { line in
                let speaker = speakers[(chapter + line) % 3]
                return .quote(
                    "This is line \(line) of chapter \(chapter + 1), and it goes on for a while so that it reads like speech.",
                    truth: speaker, offline: line % 3 == 0 ? speakers[(chapter + line + 1) % 3] : speaker,
                    confidence: line % 3 == 0 ? 0.4 : 0.9
                )
            }
    })
}

@Suite("Long books")
struct ChunkingTests {
    @Test("A character the model finds in one wave is in the roster of every later request")
    func rosterCarried() async throws {
        let book = longBook()
        let truth = book.truth
        let options = LabellingOptions(maxSpansPerRequest: 8, concurrency: 1, enrichCharacters: false)
        let first = LockedValue(true)
        try await LoopbackServer.withServer(handler: { request in
            let isFirst = first.withLock { value in defer { value = false }; return value }
            return await labeller(text: book.document.text) { span in isFirst ? "new:Aunt Agatha" : truth[Int(span.dropFirst())!]! }(request)
        }) { server in
            let result = try await HybridAnalyzer(model: makeModel(server: server), options: options)
                .label(document: book.document, analysis: book.analysis, mode: .hybrid)
            let prompts = server.requests.compactMap { VendorWire.prompt(of: $0, provider: .openai)?.user }
            #expect(prompts.count > 2)
            #expect(prompts.first?.contains("Aunt Agatha") == false)
            #expect(prompts.dropFirst().allSatisfy { $0.contains("Aunt Agatha") })
            #expect(result.analysis.characters.contains { $0.name == "Aunt Agatha" })
        }
    }

    @Test("Chapters are split into requests within the budget, each spans one chapter, all in flight within the limit")
    func chunking() async throws {
        let book = longBook()
        let truth = book.truth
        let options = LabellingOptions(maxSpansPerRequest: 5, inputTokenBudget: 2500, concurrency: 3, enrichCharacters: false)
        try await LoopbackServer.withServer(handler: { request in
            try? await Task.sleep(for: .milliseconds(20))
            return await labeller(text: book.document.text) { span in truth[Int(span.dropFirst())!]! }(request)
        }) { server in
            let analyzer = HybridAnalyzer(model: makeModel(server: server, limit: 8), options: options)
            let plan = analyzer.estimate(document: book.document, analysis: book.analysis, mode: .hybrid)
            let result = try await analyzer.label(document: book.document, analysis: book.analysis, mode: .hybrid)

            let uncertain = book.analysis.segments.indices.filter { (book.analysis.segments[$0].confidence ?? 1) < options.confidenceThreshold }
            #expect(uncertain.count == 12 * 8)
            // A request that fails for a transient reason is sent once more, the same bytes:
            // on a loaded machine the loopback connection can fail so. Count distinct requests.
            var seen = Set<Data>()
            let requests = server.requests.filter { seen.insert($0.body).inserted }
            let sent = sentSpans(requests)
            #expect(sent.count == uncertain.count)
            #expect(Set(sent) == Set(uncertain.map { "S\($0)" }))
            // 8 uncertain spans a chapter, 5 a request: two requests per chapter.
            #expect(requests.count == 24)
            #expect(plan.requests == 24)
            for request in requests {
                let user = try #require(VendorWire.prompt(of: request, provider: .openai)?.user)
                let spans = listedIDs(user, after: "Label these spans: ").map { Int($0.dropFirst())! }
                #expect(spans.count <= 5)
                let chapters = Set(spans.map { index in book.analysis.chapters.firstIndex { $0.start <= book.analysis.segments[index].start && book.analysis.segments[index].start < $0.end }! })
                #expect(chapters.count == 1)
                #expect(user.contains("Chapter: Chapter \(chapters.first! + 1)\n"))
                #expect(TokenCount.approximate(user) < 2500)
            }
            #expect(server.peakInFlight <= 3)
            for index in uncertain {
                #expect(result.analysis.segments[index].speaker == truth[index])
            }
        }
    }

    @Test("A chunk that fails for a passing reason is retried alone")
    func failedChunkRetriedAlone() async throws {
        let book = longBook(chapters: 6, quotes: 12)
        let truth = book.truth
        let failedOnce = LockedValue(false)
        let good = labeller(text: book.document.text) { span in truth[Int(span.dropFirst())!]! }
        try await LoopbackServer.withServer(handler: { request in
            let user = VendorWire.prompt(of: request, provider: .openai)?.user ?? ""
            let fail = user.contains("Chapter: Chapter 4\n") && failedOnce.withLock { failed in
                defer { failed = true }
                return !failed
            }
            return fail ? VendorWire.error(.openai, status: 503, message: "overloaded") : await good(request)
        }) { server in
            // Four uncertain spans a chapter, four a request: one request per chapter.
            let analyzer = HybridAnalyzer(model: makeModel(server: server), options: LabellingOptions(maxSpansPerRequest: 4, enrichCharacters: false))
            let result = try await analyzer.label(document: book.document, analysis: book.analysis, mode: .hybrid)
            let chapters = server.requests.compactMap { VendorWire.prompt(of: $0, provider: .openai)?.user }.map { user in
                user.split(separator: "\n").first { $0.hasPrefix("Chapter: ") }.map(String.init) ?? ""
            }
            #expect(chapters.filter { $0 == "Chapter: Chapter 4" }.count == 2)
            #expect(chapters.filter { $0 == "Chapter: Chapter 2" }.count == 1)
            #expect(server.requests.count == 7)
            #expect(result.fallbacks.isEmpty)
            #expect(result.analysis.segments.indices.allSatisfy { book.analysis.segments[$0].kind != .dialogue || result.analysis.segments[$0].speaker == truth[$0] })
        }
    }

    @Test("Finished chunks are never redone: a second run after a failure sends only the rest")
    func resumes() async throws {
        let book = longBook(chapters: 8, quotes: 6)
        let truth = book.truth
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Two uncertain spans a chapter, two a request: one request per chapter.
        let options = LabellingOptions(maxSpansPerRequest: 2, concurrency: 2, enrichCharacters: false)
        let good = labeller(text: book.document.text) { span in truth[Int(span.dropFirst())!]! }
        let answered = LockedValue(0)

        // First run: chapter 5 is refused outright (not transient), which stops the run. Chapter
        // 6, asked beside it, is answered after the refusal: an answer the server sends is paid
        // for, so the run waits for it and keeps it.
        try await LoopbackServer.withServer(handler: { request in
            let user = VendorWire.prompt(of: request, provider: .openai)?.user ?? ""
            if user.contains("Chapter: Chapter 5\n") { return VendorWire.error(.openai, status: 403, message: "no access") }
            if user.contains("Chapter: Chapter 6\n") { try? await Task.sleep(for: .milliseconds(300)) }
            answered.withLock { $0 += 1 }
            return await good(request)
        }) { server in
            let analyzer = HybridAnalyzer(model: makeModel(server: server), cache: try ResponseCache(directory: directory), options: options)
            await #expect(throws: AnalysisError.self) {
                try await analyzer.label(document: book.document, analysis: book.analysis, mode: .hybrid)
            }
        }
        let firstRunAnswers = answered.withLock { $0 }
        #expect(firstRunAnswers >= 4)

        try await LoopbackServer.withServer(handler: good) { server in
            let analyzer = HybridAnalyzer(model: makeModel(server: server), cache: try ResponseCache(directory: directory), options: options)
            let estimate = analyzer.estimate(document: book.document, analysis: book.analysis, mode: .hybrid)
            #expect(estimate.cachedRequests == firstRunAnswers)
            let result = try await analyzer.label(document: book.document, analysis: book.analysis, mode: .hybrid)
            #expect(server.requests.count == 8 - firstRunAnswers)
            #expect(estimate.requests == server.requests.count)
            #expect(result.usage.cachedRequests == firstRunAnswers)
        }

        // Third run: everything cached, nothing sent, nothing spent.
        try await LoopbackServer.withServer(handler: good) { server in
            let analyzer = HybridAnalyzer(model: makeModel(server: server), cache: try ResponseCache(directory: directory), options: options)
            #expect(analyzer.estimate(document: book.document, analysis: book.analysis, mode: .hybrid).requests == 0)
            let result = try await analyzer.label(document: book.document, analysis: book.analysis, mode: .hybrid)
            #expect(server.requests.isEmpty)
            #expect(result.usage.requests == 0)
            #expect(result.usage.cost == 0)
        }
    }

    @Test("The estimate agrees with the recorded usage within 10%", arguments: [LabellingMode.hybrid, .full])
    func estimateMatchesUsage(mode: LabellingMode) async throws {
        let book = longBook()
        let truth = book.truth
        try await LoopbackServer.withServer(handler: labeller(text: book.document.text) { span in truth[Int(span.dropFirst())!]! }) { server in
            let ledger = UsageLedger()
            let analyzer = HybridAnalyzer(model: makeModel(server: server), ledger: ledger)
            let estimate = analyzer.estimate(document: book.document, analysis: book.analysis, mode: mode)
            let result = try await analyzer.label(document: book.document, analysis: book.analysis, mode: mode)
            let recorded = result.usage
            #expect(recorded.requests == estimate.requests)
            #expect(recorded.requests == server.requests.count)
            let inputError = abs(Double(recorded.usage.inputTokens - estimate.inputTokens)) / Double(recorded.usage.inputTokens)
            let outputError = abs(Double(recorded.usage.outputTokens - estimate.outputTokens)) / Double(recorded.usage.outputTokens)
            let totalError = abs(Double(recorded.usage.inputTokens + recorded.usage.outputTokens - estimate.inputTokens - estimate.outputTokens))
                / Double(recorded.usage.inputTokens + recorded.usage.outputTokens)
            #expect(inputError < 0.10, "input: estimated \(estimate.inputTokens), recorded \(recorded.usage.inputTokens)")
            #expect(outputError < 0.10, "output: estimated \(estimate.outputTokens), recorded \(recorded.usage.outputTokens)")
            #expect(totalError < 0.10)
            let estimatedCost = try #require(estimate.cost)
            let recordedCost = try #require(recorded.cost)
            #expect(abs(estimatedCost - recordedCost) / recordedCost < 0.10)
        }
    }
}

@Suite("Labelling plan")
struct LabellingPlanTests {
    @Test("Sparse chapters share a request; a chapter that fits one request is not split")
    func chaptersShareRequests() {
        let book = longBook(chapters: 10, quotes: 6)
        let options = LabellingOptions(maxSpansPerRequest: 5, enrichCharacters: false)
        let text = ScalarText(book.document.text)
        let plan = LabellingPlan(text: text, analysis: book.analysis, chapters: book.analysis.chapters, mode: .hybrid, options: options)
        // Two uncertain spans a chapter, five a request: two chapters (four spans) per request.
        #expect(plan.targetCount == 20)
        #expect(plan.batches.count == 5)
        #expect(plan.batches.allSatisfy { $0.segments.count == 4 && $0.chapters.count == 2 })
        #expect(plan.batches.flatMap(\.segments) == book.analysis.segments.indices.filter { (book.analysis.segments[$0].confidence ?? 1) < options.confidenceThreshold })
        #expect(plan.batches[0].title == "Chapter 1 – Chapter 2")
        // Windows stay inside their chapter and cover their spans.
        for batch in plan.batches {
            for window in batch.windows {
                let chapter = book.analysis.chapters[window.chapter]
                #expect(window.range.lowerBound >= chapter.start && window.range.upperBound <= chapter.end)
            }
            for index in batch.segments {
                let segment = book.analysis.segments[index]
                #expect(batch.windows.contains { $0.range.lowerBound <= segment.start && segment.end <= $0.range.upperBound })
            }
        }
    }
}
