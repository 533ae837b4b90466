//! How a game's state travels to another machine ([`super::Playable::to_mirror`]): its
//! bytes, and the checks a state read from the network must pass before any rule runs on
//! it.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::playable::Playable;
use super::{MirrorError, PlayerId};
use crate::data::Problems;

/// What a mirror's bytes hold ([`Playable::to_mirror`]): the game's name, the public
/// things the state's skipped fields hold (its setup, or its rules and scenario name),
/// and the state itself, serialized as it is hashed.
#[derive(Serialize, serde::Deserialize)]
struct MirrorBytes<N, P, S> {
    game: N,
    public: P,
    state: S,
}

/// A mirror's bytes for game `G`: `public` (what the state's skipped fields hold, public
/// only: a secret in it would reach every machine) and the state, as compact JSON.
#[must_use]
pub fn write_mirror<G: Playable, P: Serialize>(public: &P, state: &G) -> Vec<u8> {
    let bytes = MirrorBytes {
        game: G::NAME,
        public,
        state,
    };
    // The games' states are plain data (no maps with structured keys, no floats that
    // JSON cannot write), as their state hash already needs: writing them cannot fail,
    // and empty bytes would be refused by `read_mirror` with a sentence if it ever did.
    serde_json::to_vec(&bytes).unwrap_or_default()
}

/// The public part and the state of a mirror written by [`write_mirror`] for game `G`.
/// The caller re-attaches the public part and checks the whole ([`MirrorCheck`]).
///
/// # Errors
/// The bytes are not a mirror of `G`, with the reason.
pub fn read_mirror<G: Playable, P: DeserializeOwned, S: DeserializeOwned>(
    bytes: &[u8],
) -> Result<(P, S), MirrorError> {
    #[derive(serde::Deserialize)]
    struct Named {
        game: String,
    }
    let other = |game: &str| MirrorError::OtherGame {
        found: game.chars().take(40).collect(),
        game: G::NAME,
    };
    if bytes.is_empty() {
        return Err(MirrorError::Empty { game: G::NAME });
    }
    let read: MirrorBytes<String, P, S> = match serde_json::from_slice(bytes) {
        Ok(read) => read,
        Err(e) => {
            // Another game's mirror says so plainly, rather than with a missing field.
            return Err(match serde_json::from_slice::<Named>(bytes) {
                Ok(Named { game }) if game != G::NAME => other(&game),
                _ => MirrorError::Unreadable {
                    game: G::NAME,
                    why: e.to_string(),
                },
            });
        }
    };
    if read.game != G::NAME {
        return Err(other(&read.game));
    }
    Ok((read.public, read.state))
}

/// [`read_mirror`] with the public part kept between calls, for the games whose public
/// part is large (their rules or setup): a seat's mirror changes its state every action
/// and its public part almost never, so the public part is read and made ready (`make`:
/// parsed, checked, shared) only when its text differs from the last one this thread read
/// for `T`. The state is read and must be checked every time.
///
/// # Errors
/// As [`read_mirror`], and what `make` says of a new public part.
pub fn read_mirror_cached<G, P, S, T>(
    bytes: &[u8],
    make: impl FnOnce(P) -> Result<T, MirrorError>,
) -> Result<(T, S), MirrorError>
where
    G: Playable,
    P: DeserializeOwned,
    S: DeserializeOwned,
    T: Clone + 'static,
{
    use std::any::{Any, TypeId};
    use std::cell::RefCell;
    use std::collections::HashMap;

    thread_local! {
        static READY: RefCell<HashMap<TypeId, (String, Box<dyn Any>)>> =
            RefCell::new(HashMap::new());
    }
    let (public, state): (Box<serde_json::value::RawValue>, S) = read_mirror::<G, _, _>(bytes)?;
    let text = public.get();
    let known = READY.with_borrow(|ready| {
        ready
            .get(&TypeId::of::<T>())
            .filter(|(seen, _)| seen == text)
            .and_then(|(_, t)| t.downcast_ref::<T>().cloned())
    });
    if let Some(t) = known {
        return Ok((t, state));
    }
    let parsed: P = serde_json::from_str(text).map_err(|e| MirrorError::Unreadable {
        game: G::NAME,
        why: e.to_string(),
    })?;
    let t = make(parsed)?;
    READY.with_borrow_mut(|ready| {
        ready.insert(TypeId::of::<T>(), (text.to_string(), Box::new(t.clone())));
    });
    Ok((t, state))
}

/// Checks on a state read from a mirror, each a sentence when it fails: what the rules
/// index (a seat, a unit, a square) must be in range, and lists kept per seat must have
/// one entry a seat, so that no rule panics on a state from the network.
pub struct MirrorCheck;

impl MirrorCheck {
    /// `ok`, or `why` as the error.
    ///
    /// # Errors
    /// `why()` when `ok` is false.
    pub fn that(ok: bool, why: impl FnOnce() -> String) -> Result<(), MirrorError> {
        if ok {
            Ok(())
        } else {
            Err(MirrorError::Invalid(why()))
        }
    }

    /// `seat` (named `what` in the error) is one of `seats`.
    ///
    /// # Errors
    /// A sentence naming the seat when it is not.
    pub fn seat(what: &str, seat: PlayerId, seats: usize) -> Result<(), MirrorError> {
        Self::that(seat.index() < seats, || {
            format!("{what} is seat {}, but there are {seats} seats", seat.0)
        })
    }

    /// Index `index` (named `what`) is below `len`.
    ///
    /// # Errors
    /// A sentence naming the index when it is not.
    pub fn index(what: &str, index: usize, len: usize) -> Result<(), MirrorError> {
        Self::that(index < len, || {
            format!("{what} is {index}, but there are only {len}")
        })
    }

    /// A list (named `what`) holds `want` entries.
    ///
    /// # Errors
    /// A sentence with both lengths when it does not.
    pub fn len(what: &str, got: usize, want: usize) -> Result<(), MirrorError> {
        Self::that(got == want, || {
            format!("{what} has {got} entries, not {want}")
        })
    }

    /// A validated setup read from a mirror, or its validation problems as a sentence
    /// (`what` names it: "setup", "rules").
    ///
    /// # Errors
    /// The first problems, when there are any.
    pub fn valid<T>(what: &str, validated: Result<T, Problems>) -> Result<T, MirrorError> {
        validated.map_err(|problems| {
            let list: Vec<String> = problems
                .0
                .iter()
                .take(5)
                .map(|(path, why)| {
                    if path.is_empty() {
                        why.clone()
                    } else {
                        format!("{path}: {why}")
                    }
                })
                .collect();
            MirrorError::Invalid(format!(
                "the {what} in the mirror fail validation: {}",
                list.join("; ")
            ))
        })
    }

    /// [`MirrorCheck::valid`] for a check that only lists problems (rules tables).
    ///
    /// # Errors
    /// The first problems, when there are any.
    pub fn no_problems(what: &str, problems: Problems) -> Result<(), MirrorError> {
        Self::valid(
            what,
            if problems.is_empty() {
                Ok(())
            } else {
                Err(problems)
            },
        )
    }
}
