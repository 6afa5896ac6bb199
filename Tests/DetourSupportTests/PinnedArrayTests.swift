import DetourSupport
import Synchronization
import XCTest

final class PinnedArrayTests: XCTestCase {
    func testAViewReadsTheElementsAndSlicesAsCopiedWhileTheArrayLives() {
        let words = (0..<1000).map { "word \($0)" }
        let pinned = PinnedArray(words)
        let view = pinned.view
        XCTAssertEqual(view.count, 1000)
        XCTAssertEqual((0..<view.count).map { view[$0] }, words)
        let bytes = PinnedArray(Array("listen 8080;".utf8))
        XCTAssertEqual(String(decoding: bytes.view.slice(7, count: 4), as: UTF8.self), "8080")
        XCTAssertTrue(view.isSame(as: pinned.view))
        XCTAssertFalse(view.isSame(as: PinnedArray(words).view))
        withExtendedLifetime((pinned, bytes)) {}
    }

    func testAnEmptyArrayHasAnEmptyView() {
        let pinned = PinnedArray([Int]())
        XCTAssertEqual(pinned.view.count, 0)
        XCTAssertEqual(pinned.view.slice(0, count: 0).count, 0)
    }

    func testAMemoWorksItsValueOutOnce() {
        final class Counted: Sendable {
            let memo = Memo<Int>()
            let calls = Mutex(0)
            var value: Int {
                memo.value {
                    calls.withLock { $0 += 1 }
                    return 42
                }
            }
        }
        let counted = Counted()
        XCTAssertEqual(counted.value, 42)
        XCTAssertEqual(counted.value, 42)
        XCTAssertEqual(counted.calls.withLock { $0 }, 1)
    }
}
