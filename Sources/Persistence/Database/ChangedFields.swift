import FluentKit

// A row read, changed as a value and written back must write only the columns the change
// touched: otherwise two writers of different columns (the player moving the playhead, the
// teller counting a finished part) put back each other's old values. Fluent writes the fields
// that were assigned, so a row is applied to its record field by field, only where it differs.

extension FieldProperty where Value: Equatable {
    /// Sets the field only when `new` differs from it (or it has no value yet).
    func assign(_ new: Value) {
        if value != new { value = new }
    }
}

extension OptionalFieldProperty where WrappedValue: Equatable {
    /// Sets the field only when `new` differs from it (or it has no value yet).
    func assign(_ new: WrappedValue?) {
        if value != .some(new) { value = .some(new) }
    }
}
