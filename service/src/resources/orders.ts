import { newDocumentId } from "../ids.js";
import type { Order, OrderItem } from "../model.js";
import { ServiceError, notFound } from "../service-error.js";
import { isoAt } from "../time.js";
import { orderView } from "../views.js";
import type { WorkspaceState } from "../workspace-state.js";

export interface CreateOrderInput {
	customerId: string;
	cashierId: string;
	items: OrderItem[];
	placeId: string;
	gameId: string;
}

/** Status of an order before release; the interface's only example value. */
export const SUBMITTED = "submitted";
/** Status after release; the interface names no value for it. */
export const RELEASED = "released";

export function createOrder(ws: WorkspaceState, input: CreateOrderInput, now: number): Order {
	const order: Order = {
		_id: newDocumentId(now),
		groupId: ws.groupId,
		customerId: input.customerId,
		cashierId: input.cashierId,
		status: SUBMITTED,
		items: input.items.map(({ item, quantity }) => ({ item, quantity })),
		placeId: input.placeId,
		gameId: input.gameId,
		created: isoAt(now),
		log: [{ event: "created", userId: input.cashierId, date: isoAt(now) }],
		involvedUsers: [...new Set([input.customerId, input.cashierId])],
		lastModified: isoAt(now),
	};
	ws.orders.set(order._id, order);
	return orderView(order, false);
}

export function releaseOrder(ws: WorkspaceState, orderId: string, actorId: string, now: number): Order {
	const order = ws.orders.get(orderId);
	if (!order) throw notFound(`Unknown order ${orderId}`);
	if (order.status === RELEASED) throw new ServiceError(409, `Order ${orderId} was already released`);
	order.status = RELEASED;
	order.log.push({ event: "released", userId: actorId, date: isoAt(now) });
	if (!order.involvedUsers.includes(actorId)) order.involvedUsers.push(actorId);
	order.lastModified = isoAt(now);
	return orderView(order, true);
}
