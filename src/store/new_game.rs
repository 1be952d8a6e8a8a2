//! A game's rows as one transaction inserts them, whoever makes the game: a challenge
//! ([`Store::create_game`](super::Store::create_game)) or a tournament's round
//! ([`Store::start_rounds`](super::Store::start_rounds)).

/// Inserts game `g` (`&NewGame`) in transaction `tx`, as made at `at`, and evaluates to
/// `Some((id, seed, seats))`, or `None` (and nothing inserted) when its challenger has
/// `limit` (`i64`) challenges waiting already. `active` (`bool`): the game starts
/// at once, every seat accepted (a tournament's game: version 1, started at `at`); else
/// it is a challenge, made active only when `draw` gives its first deadlines (a game of
/// one). `draw` (`FnOnce(i64) -> Result<Drawn, StoreError>`) is given the new id and
/// returns the seed, seats, snapshot and first deadlines, stored with the game. The
/// challenger's `users` row is the caller's (written before, so that a limit counted on
/// it holds); every other seated player's is written here. On either backend, inside
/// [`on_pool`](super::on_pool).
macro_rules! insert_game {
    ($tx:ident, $g:expr, $active:expr, $limit:expr, $at:expr, $draw:expr) => {{
        let g: &$crate::store::NewGame = $g;
        let active: bool = $active;
        let at: i64 = $at;
        // The limit is counted by the statement that inserts: two challenges at once
        // cannot both pass it.
        let id: Option<i64> = sqlx::query(
            "INSERT INTO games (variant, status, days_per_move, colour, challenger, channel, server, seed, start_fen, options, snapshot, version, created_at, updated_at, started_at)
             SELECT $1, $12, $2, $3, $4, $5, $6, 0, $7, $8, $9, $13, $10, $10, $14
             WHERE (SELECT count(*) FROM games WHERE challenger = $4 AND status = 'challenged') < $11
             RETURNING id",
        )
        .bind(&g.variant)
        .bind(g.days_per_move)
        .bind(&g.colour)
        .bind(&g.challenger)
        .bind(&g.channel)
        .bind(&g.server)
        .bind(&g.start_fen)
        .bind(&g.options)
        .bind(&g.snapshot)
        .bind(at)
        .bind($limit)
        .bind(if active { "active" } else { "challenged" })
        .bind(i64::from(active))
        .bind(active.then_some(at))
        .fetch_optional(&mut *$tx)
        .await?
        .map(|r| sqlx::Row::get(&r, 0));
        match id {
            None => None,
            Some(id) => {
                let $crate::store::Drawn {
                    seed,
                    seats,
                    snapshot,
                    start,
                    start_is_default,
                } = ($draw)(id)?;
                // The starting state is kept only where the game's row does not give it
                // (migration 0022: `start_is_default`).
                sqlx::query(
                    "UPDATE games SET seed = $1, snapshot = coalesce($2, snapshot), start_snapshot = CASE WHEN $4 THEN NULL ELSE coalesce($2, snapshot) END WHERE id = $3",
                )
                .bind(seed)
                .bind(&snapshot)
                .bind(id)
                .bind(start_is_default)
                .execute(&mut *$tx)
                .await?;
                if let Some(deadlines) = &start {
                    if !active {
                        // Started at once: the first write of an accepted challenge, in
                        // the same transaction as the game.
                        sqlx::query("UPDATE games SET status = 'active', version = 1 WHERE id = $1")
                            .bind(id)
                            .execute(&mut *$tx)
                            .await?;
                    }
                    for (seat, due_at) in deadlines {
                        // Looked at by the deadline check from now on (migration 0019's
                        // `check_at`, as a game's write sets it): without it the first
                        // turn would never be reminded of nor timed out.
                        sqlx::query(
                            "INSERT INTO deadlines (game_id, seat, turn, due_at, check_at) VALUES ($1, $2, 1, $3, $4)",
                        )
                        .bind(id)
                        .bind(*seat as i64)
                        .bind(due_at)
                        .bind(at)
                        .execute(&mut *$tx)
                        .await?;
                    }
                }
                for s in &seats {
                    // A player is recorded with the game that seats them, in its
                    // transaction (the challenger already is).
                    if let Some(user) = s.user.as_ref().filter(|u| **u != g.challenger) {
                        sqlx::query(
                            "INSERT INTO users (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING",
                        )
                        .bind(user)
                        .bind(user)
                        .execute(&mut *$tx)
                        .await?;
                    }
                    sqlx::query(
                        "INSERT INTO seats (game_id, seat, user_id, role, accepted) VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(id)
                    .bind(s.seat as i64)
                    .bind(&s.user)
                    .bind(&s.role)
                    .bind(i64::from(s.accepted))
                    .execute(&mut *$tx)
                    .await?;
                }
                Some((id, seed, seats))
            }
        }
    }};
}
pub(super) use insert_game;
