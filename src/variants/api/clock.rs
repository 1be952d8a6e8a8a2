//! The referee's clock entries in a game's log: a deadline extended because its player
//! was on vacation (`{"Vacation":{"from":S,"seconds":N,"to":E}}`). No variant sees them;
//! every replay of a log ([`crate::variants::Registry::replay`], through
//! [`super::Takebacks::step`]) passes over them, so they change nothing in the game and
//! only record, for replays and exports, why a clock was stopped.

use super::Action;
use serde::{Deserialize, Serialize};

/// A deadline extended for a vacation, as the log records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VacationEntry {
    /// When the vacation started (seconds since the epoch).
    pub from: i64,
    /// When it ended.
    pub to: i64,
    /// By how many seconds the seat's deadline was extended: the part of the vacation
    /// its turn was running.
    pub seconds: i64,
}

/// Read only: the entry is written out by hand.
#[derive(Deserialize)]
enum Entry {
    Vacation(VacationEntry),
}

impl Action {
    /// The referee's log entry of a deadline extended for a vacation.
    pub fn vacation(entry: VacationEntry) -> Action {
        // Written out rather than serialised: the entry is numbers alone, so it cannot
        // fail to be written.
        Action::referees(serde_json::json!({"Vacation": {
            "from": entry.from,
            "seconds": entry.seconds,
            "to": entry.to,
        }}))
    }

    /// The vacation this entry records, if it records one.
    pub fn vacation_entry(&self) -> Option<VacationEntry> {
        match serde_json::from_value::<Entry>(self.json().clone()) {
            Ok(Entry::Vacation(v)) => Some(v),
            Err(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vacation_entry_reads_back_and_is_the_referees() {
        let e = VacationEntry {
            from: 10,
            to: 20,
            seconds: 5,
        };
        let a = Action::vacation(e);
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"{"Vacation":{"from":10,"seconds":5,"to":20}}"#
        );
        assert_eq!(a.vacation_entry(), Some(e));
        assert!(a.is_referees());
        assert_eq!(Action::timeout().vacation_entry(), None);
        assert_eq!(a.takeback_step(), None);
    }
}
