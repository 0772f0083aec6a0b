import { t } from "@rbxts/t";
import { ArgSpec, checkArgs, idRule, positiveRule, Rule, shortTextRule } from "../arguments";
import type { CallOptions } from "../callOptions";
import { array, num, object, opt, Reader, req, str, strings, succeeded } from "../reader";
import { Call, route } from "../routeSpec";

// Orders: `client.orders`. Creating an order and releasing it.
// Readers are tolerant (`reader.ts`): what identifies a resource or what the library itself needs is required,
// everything else optional; each answer reader is declared against its answer type, so the compiler checks the two agree.

// ---- Resources ----

/**
 * One item line of an order.
 * @see README#typed-client
 */
export interface OrderItem {
	readonly item: string;
	readonly quantity: number;
}

/**
 * An order; `status` appears in the release answer only.
 * @see README#typed-client
 */
export interface Order {
	readonly _id: string;
	readonly groupId?: string;
	readonly customerId?: string;
	readonly cashierId?: string;
	readonly status?: string;
	readonly items?: ReadonlyArray<Partial<OrderItem>>;
	readonly placeId?: string;
	readonly gameId?: string;
	readonly created?: string;
	readonly log?: ReadonlyArray<{ readonly event?: string; readonly userId?: string; readonly date?: string }>;
	readonly involvedUsers?: ReadonlyArray<string>;
	readonly lastModified?: string;
}

// ---- Arguments ----

/**
 * Arguments of `client.orders.create` (`POST /orders`).
 * @see README#typed-client
 */
export interface CreateOrderArgs {
	readonly customerId: string;
	readonly cashierId: string;
	/** At least one line; quantities positive. */
	readonly items: ReadonlyArray<OrderItem>;
	readonly placeId: string;
	readonly gameId: string;
}

/**
 * Arguments of `client.orders.release` (`PUT /orders/{orderId}/release`).
 * @see README#typed-client
 */
export interface ReleaseOrderArgs {
	/** Who releases the order (a user id). */
	readonly actorId: string;
}

const orderItemsRule: Rule = [
	(value) => {
		if (!t.array(t.any)(value) || value.size() === 0 || value.size() > 1000) return false;
		for (const line of value) {
			if (checkArgs({ required: { item: idRule, quantity: positiveRule } }, line) !== undefined) return false;
		}
		return true;
	},
	"a non-empty array of { item: string, quantity: number above 0 }",
];

const createOrderArgs: ArgSpec = {
	required: {
		customerId: idRule,
		cashierId: idRule,
		items: orderItemsRule,
		placeId: shortTextRule,
		gameId: shortTextRule,
	},
};

const releaseOrderArgs: ArgSpec = { required: { actorId: idRule } };

// ---- Answers ----

/** Answer of `client.orders.create` (the order has no `status`). @see README#typed-client */
export interface CreateOrderAnswer {
	readonly success: true;
	readonly order: Order;
}

/** Answer of `client.orders.release` (the order carries `status` when the service sends it). @see README#typed-client */
export interface ReleaseOrderAnswer {
	readonly success: true;
	readonly order: Order;
}

const order: Reader<Order> = object({
	_id: req(str),
	groupId: opt(str),
	customerId: opt(str),
	cashierId: opt(str),
	status: opt(str),
	items: opt(array(object({ item: opt(str), quantity: opt(num) }))),
	placeId: opt(str),
	gameId: opt(str),
	created: opt(str),
	log: opt(array(object({ event: opt(str), userId: opt(str), date: opt(str) }))),
	involvedUsers: opt(strings),
	lastModified: opt(str),
});

// ---- Routes ----

/** The routes of orders. @internal */
export const ordersRoutes = {
	createOrder: route({
		method: "POST",
		path: "/orders",
		safeToRepeat: false,
		args: createOrderArgs,
		answer: object({ success: succeeded, order: req(order) }) satisfies Reader<CreateOrderAnswer>,
	}),
	releaseOrder: route({
		method: "PUT",
		path: "/orders/{orderId}/release",
		safeToRepeat: true,
		args: releaseOrderArgs,
		answer: object({ success: succeeded, order: req(order) }) satisfies Reader<ReleaseOrderAnswer>,
		// A repeat after an unknown outcome may be refused because the first attempt already released the order.
		refusalMayMeanDone: true,
	}),
};

// ---- Namespace ----

/**
 * Orders: `client.orders`.
 * @see README#typed-client
 */
export interface OrdersApi {
	/** Creates an order (`POST /orders`). Not retried after an unknown outcome: a repeat would create two. */
	create(args: CreateOrderArgs, options?: CallOptions): Promise<CreateOrderAnswer>;
	/**
	 * Releases an order (`PUT /orders/{orderId}/release`). Retried after an unknown outcome; if the repeat is
	 * refused (409) the error's message says the earlier attempt may have released it.
	 */
	release(orderId: string, args: ReleaseOrderArgs, options?: CallOptions): Promise<ReleaseOrderAnswer>;
}

/** Builds `client.orders` on the api client's call. @internal */
export function ordersApi(call: Call<keyof typeof ordersRoutes>): OrdersApi {
	return {
		create(args, options) {
			return call("createOrder", options, [], args);
		},
		release(orderId, args, options) {
			return call("releaseOrder", options, [orderId], args);
		},
	};
}
