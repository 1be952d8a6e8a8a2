//! Discord's own contract: every request the bot makes is checked against Discord's API
//! as Discord publishes it, an OpenAPI 3.1 document (`openapi.json`, MIT, a minified copy
//! kept in `tests/data/discord-api/`, so any clone checks it). A request passes
//! when its route and method are in the document, its path parameters are of their type
//! (a snowflake is digits), its query parameters are the operation's, and its JSON body,
//! or the `payload_json` part of a multipart body, is valid for the operation's request
//! body schema (JSON Schema 2020-12).
//!
//! Two deviations, as Discord behaves: a snowflake may be a JSON integer as well as a
//! string of digits (serenity sends a new attachment's `id` as `0`), and a command's
//! `default_member_permissions` a string of digits as well as an integer.
//!
//! The document is read and indexed once per test process; a validator is compiled the
//! first time an operation is met (an operation's schema holds the document's components,
//! which its `$ref`s point into) and kept for the process.

use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Where the document is, relative to the repository.
const DOCUMENT: &str = "tests/data/discord-api/openapi.json";

/// One route of the document: its template's segments and its operations by method.
struct Route {
    /// The template, as the document writes it (`/channels/{channel_id}/messages`).
    template: String,
    /// Its segments: `None` for a parameter, `Some(literal)` otherwise.
    segments: Vec<Option<String>>,
    /// The parameters' names, in the order of the `None` segments.
    params: Vec<String>,
    /// The path item (its parameters and its operations by lower-case method).
    item: Value,
}

/// A compiled request body schema: a validator per branch of a top-level `anyOf` (so
/// that a refusal names the errors of the nearest branch), or one.
struct Body {
    /// (branch name, validator).
    branches: Vec<(String, jsonschema::Validator)>,
}

/// The document, indexed.
struct Contract {
    routes: Vec<Route>,
    /// The document's `components`, which every compiled schema carries.
    components: Value,
    /// Compiled request bodies, by "METHOD template".
    bodies: Mutex<HashMap<String, Arc<Body>>>,
}

/// The contract, loaded once per process. Panics with a clear message where the document
/// is missing or unreadable: the Discord tests cannot check requests without it.
fn contract() -> &'static Contract {
    static CONTRACT: OnceLock<Contract> = OnceLock::new();
    CONTRACT.get_or_init(|| {
        let path = crate::common::root().join(DOCUMENT);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "Discord's OpenAPI document is needed to check the bot's requests, at {} \
                 (a minified copy of shared/reference/discord-api/openapi.json): {e}",
                path.display()
            )
        });
        let doc: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
        Contract::index(doc)
    })
}

impl Contract {
    fn index(mut doc: Value) -> Contract {
        // Discord reads a snowflake given as a JSON integer too.
        let snowflake = &mut doc["components"]["schemas"]["SnowflakeType"];
        assert!(
            snowflake.is_object(),
            "the document has no SnowflakeType schema"
        );
        let string = snowflake.take();
        *snowflake = json!({"anyOf": [string, {"type": "integer", "minimum": 0}]});
        // A command's default member permissions, a bit set the document types as an
        // integer, is sent as a string of digits, as Discord's reference documents it and
        // serenity writes it.
        if let Some(schemas) = doc["components"]["schemas"].as_object_mut() {
            for schema in schemas.values_mut() {
                let bits = schema
                    .get_mut("properties")
                    .and_then(|p| p.get_mut("default_member_permissions"));
                if let Some(bits) = bits.filter(|b| b.is_object()) {
                    let integer = bits.take();
                    *bits = json!({"anyOf": [integer, {"type": "string", "pattern": "^[0-9]+$"}]});
                }
            }
        }
        let paths = doc["paths"].as_object().cloned().unwrap_or_default();
        let routes = paths
            .into_iter()
            .map(|(template, item)| {
                let mut params = Vec::new();
                let segments = split(&template)
                    .map(
                        |s| match s.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                            Some(name) => {
                                params.push(name.to_string());
                                None
                            }
                            None => Some(s.to_string()),
                        },
                    )
                    .collect();
                Route {
                    template,
                    segments,
                    params,
                    item,
                }
            })
            .collect();
        Contract {
            routes,
            components: doc["components"].take(),
            bodies: Mutex::new(HashMap::new()),
        }
    }

    /// The route `path` takes: of those whose template matches it, the one with a literal
    /// segment where the others have a parameter, earliest (`/users/@me` before
    /// `/users/{user_id}`). With the values of its parameters.
    fn route<'p>(&self, path: &'p str) -> Option<(&Route, Vec<&'p str>)> {
        let segs: Vec<&str> = split(path).collect();
        self.routes
            .iter()
            .filter(|r| {
                r.segments.len() == segs.len()
                    && r.segments.iter().zip(&segs).all(|(t, s)| match t {
                        Some(lit) => lit == s,
                        None => !s.is_empty(),
                    })
            })
            .max_by_key(|r| {
                // Literal segments first, as a binary number read from the left.
                r.segments
                    .iter()
                    .fold(0u64, |acc, t| acc * 2 + u64::from(t.is_some()))
            })
            .map(move |r| {
                let values = r
                    .segments
                    .iter()
                    .zip(&segs)
                    .filter(|(t, _)| t.is_none())
                    .map(|(_, s)| *s)
                    .collect();
                (r, values)
            })
    }

    /// The compiled request body schema of `method` on `route`, if it has one.
    fn body(&self, route: &Route, method: &str, op: &Value) -> Option<Arc<Body>> {
        let schema = op["requestBody"]["content"]["application/json"]["schema"].clone();
        if schema.is_null() {
            return None;
        }
        let key = format!("{method} {}", route.template);
        if let Some(b) = self.bodies.lock().unwrap().get(&key) {
            return Some(b.clone());
        }
        let branches: Vec<(String, Value)> = match schema.get("anyOf").and_then(Value::as_array) {
            Some(arms) if schema.as_object().is_some_and(|o| o.len() <= 2) => {
                arms.iter().map(|a| (branch_name(a), a.clone())).collect()
            }
            _ => vec![(String::new(), schema)],
        };
        let body = Arc::new(Body {
            branches: branches
                .into_iter()
                .map(|(name, s)| (name, self.compile(s, &key)))
                .collect(),
        });
        self.bodies.lock().unwrap().insert(key, body.clone());
        Some(body)
    }

    /// A validator for `schema`, one of the document's, whose `$ref`s point into the
    /// document's components (carried beside it).
    fn compile(&self, schema: Value, what: &str) -> jsonschema::Validator {
        let mut root = match schema {
            Value::Object(o) => o,
            other => {
                let mut o = Map::new();
                o.insert("allOf".into(), json!([other]));
                o
            }
        };
        root.insert("components".into(), self.components.clone());
        jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&Value::Object(root))
            .unwrap_or_else(|e| panic!("{what}: the document's schema does not compile: {e}"))
    }
}

/// A path's segments, without the leading `/`.
fn split(path: &str) -> impl Iterator<Item = &str> {
    path.trim_start_matches('/').split('/')
}

/// The name of a branch of an `anyOf`: the last part of its `$ref`.
fn branch_name(branch: &Value) -> String {
    branch["$ref"]
        .as_str()
        .and_then(|r| r.rsplit('/').next())
        .unwrap_or("a branch")
        .to_string()
}

/// Why Discord would refuse `method` on `path` (after `/api/v10`, with the `query` string
/// if any) carrying `body` (the JSON body or a multipart body's `payload_json`; `None`
/// when the request had none); `None` when it would accept it.
pub(super) fn violation(
    method: &str,
    path: &str,
    query: Option<&str>,
    body: Option<&Value>,
) -> Option<String> {
    let c = contract();
    let Some((route, values)) = c.route(path) else {
        return Some(format!("no route {path} in Discord's API"));
    };
    let m = method.to_ascii_lowercase();
    let Some(op) = route.item.get(&m) else {
        return Some(format!("{method} is not a method of {}", route.template));
    };
    let declared: Vec<&Value> = route.item["parameters"]
        .as_array()
        .into_iter()
        .chain(op["parameters"].as_array())
        .flatten()
        .collect();
    for (name, value) in route.params.iter().zip(values) {
        let schema = declared
            .iter()
            .find(|p| p["name"] == json!(name) && p["in"] == json!("path"))
            .map(|p| &p["schema"]);
        let snowflake =
            schema.is_some_and(|s| s["$ref"] == json!("#/components/schemas/SnowflakeType"));
        if snowflake && (value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit())) {
            return Some(format!("{} in {path} is not a snowflake", route.template));
        }
    }
    for pair in query
        .unwrap_or_default()
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let name = pair.split('=').next().unwrap_or_default();
        if !declared
            .iter()
            .any(|p| p["name"] == json!(name) && p["in"] == json!("query"))
        {
            return Some(format!(
                "{method} {}: no query parameter {name}",
                route.template
            ));
        }
    }
    let required = op["requestBody"]["required"] == json!(true);
    match (c.body(route, &m, op), body) {
        (None, Some(b)) => Some(format!(
            "{method} {} takes no body, but was sent {}",
            route.template,
            clip(&b.to_string())
        )),
        (Some(_), None) if required => Some(format!("{method} {} needs a body", route.template)),
        (Some(schema), Some(b)) => schema.refusal(b).map(|why| {
            format!(
                "{method} {} refused: {why}\nbody: {}",
                route.template,
                clip(&b.to_string())
            )
        }),
        _ => None,
    }
}

impl Body {
    /// Why `body` is invalid (the errors of the branch it comes nearest), or `None`.
    fn refusal(&self, body: &Value) -> Option<String> {
        let mut best: Option<(String, Vec<String>)> = None;
        for (name, v) in &self.branches {
            let errors: Vec<String> = v
                .iter_errors(body)
                .map(|e| format!("at {}: {e}", e.instance_path()))
                .collect();
            if errors.is_empty() {
                return None;
            }
            if best.as_ref().map_or(true, |(_, b)| errors.len() < b.len()) {
                best = Some((name.clone(), errors));
            }
        }
        best.map(|(name, errors)| {
            let lines: Vec<String> = errors.iter().take(5).map(|e| clip(e)).collect();
            let branch = if name.is_empty() {
                String::new()
            } else {
                format!(" (as {name})")
            };
            format!("invalid{branch}: {}", lines.join("; "))
        })
    }
}

/// At most 600 characters of `s`, for messages.
fn clip(s: &str) -> String {
    match s.char_indices().nth(600) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contract_refuses_what_discord_refuses_and_accepts_what_it_accepts() {
        let ok = json!({"content": "hello", "attachments": [{"id": 0, "filename": "a.png"}]});
        assert_eq!(
            violation(
                "POST",
                "/channels/400000000000000001/messages",
                None,
                Some(&ok)
            ),
            None
        );
        let too_long = json!({"content": "x".repeat(4001)});
        let why = violation("POST", "/channels/4/messages", None, Some(&too_long)).unwrap();
        assert!(why.contains("/content"), "{why}");
        let bad_button = json!({"content": "a", "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "Go", "custom_id": 7}]}]});
        assert!(violation("POST", "/channels/4/messages", None, Some(&bad_button)).is_some());
        assert!(violation("GET", "/channels/4/nothing", None, None).is_some());
        assert!(violation("PUT", "/gateway/bot", None, None).is_some());
        assert!(violation("GET", "/users/abc", None, None).is_some());
        assert_eq!(violation("GET", "/users/@me", None, None), None);
        assert!(violation("GET", "/gateway/bot", Some("v=10&x=1"), None).is_some());
        let callback = json!({"type": 4, "data": {"content": "hi", "flags": 64}});
        assert_eq!(
            violation(
                "POST",
                "/interactions/5/tok/callback",
                None,
                Some(&callback)
            ),
            None
        );
        let unknown = json!({"type": 99});
        assert!(violation("POST", "/interactions/5/tok/callback", None, Some(&unknown)).is_some());
    }
}
