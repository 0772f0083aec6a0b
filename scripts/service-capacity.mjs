// How many registrations and joins a second the reference service answers (one Node process on this machine): the
// service's side of README#figures-for-a-whole-game. Starts the compiled service (`node scripts/service.mjs
// --build-only` first), registers SERVERS servers with 12 joins each from 64 concurrent clients, prints the rate.
//
// usage: node scripts/service-capacity.mjs [SERVERS]   (default 300)
import { performance } from "node:perf_hooks";
import { startService } from "./service-process.mjs";

const CONCURRENT = 64;
const PLAYERS = 12;
const servers = Number(process.argv[2] ?? 300);
const service = await startService();
const headers = { "content-type": "application/json", "loader-id": service.key };

async function post(path, body) {
	const answer = await fetch(service.baseUrl + path, { method: "POST", headers, body: JSON.stringify(body) });
	if (!answer.ok) throw new Error(`${path} answered ${answer.status}`);
	return answer.json();
}

/** One server: its registration, then its players' joins one after the other; answers the requests sent. */
async function oneServer(index) {
	const registered = await post("/activity/createServer", {
		gameId: 1234,
		placeId: 1818,
		jobId: `capacity-${index}`,
		privateServerId: "",
		privateServerOwnerId: 0,
		placeVersion: "42",
	});
	for (let player = 0; player < PLAYERS; player++) {
		await post("/activity/playerJoin", {
			playerId: 100000 + index * 20 + player,
			safechat: false,
			username: `Player${player}`,
			tzOffset: "+00:00",
			platform: "Desktop",
			gameId: registered.runningGameId,
		});
	}
	return 1 + PLAYERS;
}

let started = 0;
let requests = 0;
async function client() {
	while (started < servers) {
		started += 1;
		const sent = await oneServer(started);
		requests += sent;
	}
}

const from = performance.now();
try {
	await Promise.all(Array.from({ length: CONCURRENT }, client));
	const seconds = (performance.now() - from) / 1000;
	console.log(
		`${servers} servers, ${requests} registrations and joins in ${seconds.toFixed(2)} s: ` +
			`${(requests / seconds).toFixed(0)} a second (${CONCURRENT} concurrent clients)`,
	);
} finally {
	service.stop();
}
