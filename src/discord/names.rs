//! Players' names as Discord shows them: a member's server nickname, else the user's
//! global display name, else their username. The adapter learns them from what every
//! event already carries (a message's author and the users it mentions, an interaction's
//! member and the users its options resolve) and hands them to the service
//! ([`Service::learn_name`]), which draws them in board captions and writes them in
//! records; no REST call is made to draw an image.

use crate::service::referee::Service;
use serenity::all::{CommandInteraction, Member, Message, User};

/// The name Discord shows for `user` in a server where their nickname is `nick`.
pub fn shown_name<'a>(user: &'a User, nick: Option<&'a str>) -> &'a str {
    nick.filter(|n| !n.trim().is_empty())
        .or(user.global_name.as_deref().filter(|n| !n.trim().is_empty()))
        .unwrap_or(&user.name)
}

fn learn(service: &Service, user: &User, nick: Option<&str>) {
    if !user.bot {
        service.learn_name(&user.id.to_string(), shown_name(user, nick));
    }
}

/// Learns the names of a message's author and of the users it mentions.
pub fn learn_from_message(service: &Service, msg: &Message) {
    let nick = msg.member.as_ref().and_then(|m| m.nick.as_deref());
    learn(service, &msg.author, nick);
    for u in &msg.mentions {
        let nick = u.member.as_ref().and_then(|m| m.nick.as_deref());
        learn(service, u, nick);
    }
}

/// Learns the names of an interaction's user and of the users its options resolve (a
/// challenge's opponents).
pub fn learn_from_interaction(
    service: &Service,
    user: &User,
    member: Option<&Member>,
    cmd: Option<&CommandInteraction>,
) {
    learn(service, user, member.and_then(|m| m.nick.as_deref()));
    if let Some(cmd) = cmd {
        let resolved = &cmd.data.resolved;
        for (id, u) in &resolved.users {
            let nick = resolved.members.get(id).and_then(|m| m.nick.as_deref());
            learn(service, u, nick);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(name: &str, global: Option<&str>) -> User {
        let mut u = User::default();
        u.name = name.to_string();
        u.global_name = global.map(str::to_string);
        u
    }

    #[test]
    fn the_nickname_comes_first_then_the_global_name_then_the_username() {
        let u = user("alice_1", Some("Alice"));
        assert_eq!(shown_name(&u, Some("Ally")), "Ally");
        assert_eq!(shown_name(&u, Some("  ")), "Alice");
        assert_eq!(shown_name(&u, None), "Alice");
        assert_eq!(shown_name(&user("bob", None), None), "bob");
    }
}
