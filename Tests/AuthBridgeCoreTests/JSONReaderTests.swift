import AuthBridgeCore
import Testing

@Suite struct JSONReading {
    typealias Reader = JSONReader<JSONReadError>
    typealias Field = JSONField<JSONReadError>

    static let step: JSONValue = [
        "authId": "a1", "status": 200.0,
        "callbacks": [
            ["type": "NameCallback", "input": [["name": "IDToken1", "value": "demo"]]],
            ["type": "PasswordCallback", "input": [["name": "IDToken2", "value": .null]]],
            ["type": "ChoiceCallback", "input": [["name": "IDToken3", "value": 7]]],
        ],
    ]

    /// The error a read throws, or nil when it succeeds.
    func failure<T>(_ read: () throws(JSONReadError) -> T) -> JSONReadError? {
        do {
            _ = try read()
            return nil
        } catch {
            return error
        }
    }

    @Test func readsThroughObjectsAndArrays() throws {
        let step = try Reader(Self.step)
        #expect(try step.string("authId") == "a1")
        #expect(try step.int("status") == 200)
        let callbacks = try step.readers("callbacks")
        #expect(callbacks.count == 3)
        #expect(callbacks[2].path == "callbacks[2]")
        let input = try callbacks[2]["input"].elements()[0].reader()
        #expect(input.path == "callbacks[2].input[0]")
        #expect(try input.int("value") == 7)
        #expect(try callbacks[1]["input"].readers()[0]["value"].optionalString() == nil)
    }

    @Test func aWrongKindNamesThePathTheExpectationAndWhatWasThere() throws {
        let input = try Reader(Self.step).readers("callbacks")[2]["input"].readers()[0]
        let error = failure { () throws(JSONReadError) in try input.string("value") }
        #expect(
            error
                == JSONReadError(
                    path: JSONPath(components: [.key("callbacks"), .index(2), .key("input"), .index(0), .key("value")]),
                    expected: .string, found: .kind(.integer)))
        #expect(error?.description == "callbacks[2].input[0].value must be a string, got integer")
    }

    @Test func everyKindMismatch() throws {
        let values: [JSONValue] = [.null, true, 1, 1.5, "s", [], [:]]
        let reads: [(JSONReadError.Expectation, (Field) throws(JSONReadError) -> Void)] = [
            (.string, { field throws(JSONReadError) in _ = try field.string() }),
            (.integer, { field throws(JSONReadError) in _ = try field.int() }),
            (.number, { field throws(JSONReadError) in _ = try field.double() }),
            (.boolean, { field throws(JSONReadError) in _ = try field.bool() }),
            (.array, { field throws(JSONReadError) in _ = try field.array() }),
            (.object, { field throws(JSONReadError) in _ = try field.object() }),
        ]
        let accepts: [JSONReadError.Expectation: Set<JSONValue.Kind>] = [
            .string: [.string], .integer: [.integer], .number: [.integer, .number], .boolean: [.boolean],
            .array: [.array], .object: [.object],
        ]
        for (expected, read) in reads {
            for value in values {
                let field = Field(value, at: JSONPath("x"))
                let error = failure { () throws(JSONReadError) in try read(field) }
                if accepts[expected]!.contains(value.kind) {
                    #expect(error == nil, "\(expected) of \(value)")
                } else {
                    #expect(
                        error == JSONReadError(path: JSONPath("x"), expected: expected, found: .kind(value.kind)),
                        "\(expected) of \(value)")
                    #expect(error?.description == "x must be \(expected.phrase), got \(value.kind.rawValue)")
                }
            }
        }
    }

    @Test func integersTakeWholeDoublesOnly() throws {
        #expect(try Field(2.0).int() == 2)
        #expect(failure { () throws(JSONReadError) in try Field(2.5).int() }?.found == .kind(.number))
    }

    @Test func missingIsNotNull() throws {
        let reader = try Reader(["a": .null])
        #expect(
            failure { () throws(JSONReadError) in try reader.string("b") }
                == JSONReadError(path: JSONPath("b"), expected: .string, found: .missing))
        #expect(failure { () throws(JSONReadError) in try reader.string("b") }?.description == "missing b (a string)")
        #expect(failure { () throws(JSONReadError) in try reader.string("a") }?.found == .kind(.null))
        #expect(try reader.value("a") == .null)
        #expect(failure { () throws(JSONReadError) in try reader.value("b") }?.found == .missing)
        #expect(!reader.has("a") && !reader.has("b"))
    }

    @Test func optionalReadsTakeMissingAndNullAsAbsent() throws {
        let reader = try Reader(["n": .null, "s": "x", "i": 3])
        #expect(try reader.optionalString("n") == nil)
        #expect(try reader.optionalString("gone") == nil)
        #expect(try reader.optionalString("s") == "x")
        #expect(try reader["n"].optionalReaders() == nil)
        let error = failure { () throws(JSONReadError) in try reader.optionalString("i") }
        #expect(
            error == JSONReadError(path: JSONPath("i"), expected: .string, found: .kind(.integer), nullAllowed: true))
        #expect(failure { () throws(JSONReadError) in try reader["s"].optionalElements() }?.expected == .array)
    }

    @Test func onlyAnObjectIsReadMemberByMember() throws {
        let error = failure { () throws(JSONReadError) in try Reader([1, 2], path: "config") }
        #expect(error == JSONReadError(path: JSONPath("config"), expected: .object, found: .kind(.array)))
        let element = failure { () throws(JSONReadError) in try Reader(["list": [["a": 1], 5]]).readers("list") }
        #expect(element?.description == "list[1] must be an object, got integer")
        let string = failure { () throws(JSONReadError) in try Reader(["names": ["a", 2]]).strings("names") }
        #expect(string?.description == "names[1] must be a string, got integer")
    }

    @Test func rangesAndFormatsNameTheValue() throws {
        let reader = try Reader(["late": 1e20, "negative": -5, "key": "not base64!"])
        let late = failure { () throws(JSONReadError) in try reader.time("late") }
        #expect(late == JSONReadError(path: JSONPath("late"), expected: .time, found: .value(.double(1e20))))
        #expect(late?.description == "late must be a time (\(TimeBounds.description)), got 1e+20")
        #expect(failure { () throws(JSONReadError) in try reader.seconds("negative") }?.found == .value(.int(-5)))
        let key = failure { () throws(JSONReadError) in try reader.bytes("key") }
        #expect(key?.expected == .base64URL)
        #expect(key?.description == "key is not base64url")
    }

    @Test func aRootPathPrefixesEveryMember() throws {
        let reader = try Reader(["user": ["name": 1]], path: "server.users.demo")
        let error = failure { () throws(JSONReadError) in try reader.reader("user").string("name") }
        #expect(error?.path.description == "server.users.demo.user.name")
        #expect(JSONPath().appending(index: 0).description == "[0]")
    }
}

@Suite struct StateReading {
    func message<T>(_ read: () throws(StateError) -> T) -> String? {
        do {
            _ = try read()
            return nil
        } catch {
            return error.message
        }
    }

    /// Saved state keeps its own wording: `path: expected …, found …`.
    @Test func savedStateWordsErrorsAsBefore() throws {
        let reader = try StateReader(
            ["n": 1, "s": "x", "late": 1e20, "long": -1, "list": ["a", 2], "o": 3], path: "native")
        #expect(
            message { () throws(StateError) in try reader.string("n") } == "native.n: expected a string, found integer")
        #expect(message { () throws(StateError) in try reader.string("gone") } == "native.gone: missing")
        #expect(
            message { () throws(StateError) in try reader.optionalString("n") }
                == "native.n: expected a string or null, found integer")
        #expect(
            message { () throws(StateError) in try reader.int("s") } == "native.s: expected an integer, found string")
        #expect(
            message { () throws(StateError) in try reader.time("late") }
                == "native.late: 1e+20 is not a time (\(TimeBounds.description))")
        #expect(
            message { () throws(StateError) in try reader.seconds("long") }
                == "native.long: -1 is not a number of seconds from 0 to 253402300799")
        #expect(
            message { () throws(StateError) in try reader.bytes("s") } == "native.s: expected base64url, found string")
        #expect(
            message { () throws(StateError) in try reader.strings("list") }
                == "native.list[1]: expected a string, found integer")
        #expect(
            message { () throws(StateError) in try reader.readers("list") }
                == "native.list[0]: expected an object, found string")
        #expect(
            message { () throws(StateError) in try StateReader([1], path: "") } == ": expected an object, found array")
        #expect(
            message { () throws(StateError) in try reader.reader("o") } == "native.o: expected an object, found integer"
        )
    }
}
