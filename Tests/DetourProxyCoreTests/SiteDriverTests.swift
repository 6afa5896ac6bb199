import DetourProxyCore
import Foundation
import Synchronization
import XCTest

final class SiteDriverTests: XCTestCase {
    func testResultsComeInTheOrderTheSitesWereRead() {
        let driver = SiteDriver(batchSize: 7) { (site: Int) -> String in
            // Uneven work, so batches finish out of order.
            if site % 13 == 0 { usleep(200) }
            return "site \(site)"
        }
        for site in 0..<1000 { driver.submit(site) }
        XCTAssertEqual(driver.finish(), (0..<1000).map { "site \($0)" })
    }

    func testSitesAreCheckedWhileTheReaderIsStillReading() {
        let checked = Atomic<Int>(0)
        let driver = SiteDriver(batchSize: 4) { (site: Int) -> Int in
            checked.add(1, ordering: .relaxed)
            return site
        }
        for site in 0..<8 { driver.submit(site) }
        // Two full batches are handed over before the reader finishes.
        let deadline = Date().addingTimeInterval(5)
        while checked.load(ordering: .relaxed) < 4, Date() < deadline { usleep(1000) }
        XCTAssertGreaterThanOrEqual(checked.load(ordering: .relaxed), 4)
        XCTAssertEqual(driver.finish(), Array(0..<8))
    }

    func testNoSitesGiveNoResults() {
        XCTAssertEqual(SiteDriver { (site: Int) in site }.finish(), [])
    }
}
