// What crosses the `Notifications` remote: server → client, a staff notification's text, already filtered for that
// player. The client only shows it.

/** The staff notifications' remote. @internal */
export const NOTIFICATIONS_REMOTE = "Notifications";
