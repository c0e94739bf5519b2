import { CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { Seat, Viewer } from '@bismarck/rules';
import { ProblemException } from '../../platform/problem/problem';
import { parseMatchId } from '../../platform/http/match-id';
import { NOT_SEATED, SeatCredentials } from './seat-credentials.service';

const SEAT_REQUIRED = 'bismarck:seatRequired';

/** The route acts for a seat: a valid seat token of this match is required. */
export const SeatRequired = (): MethodDecorator => SetMetadata(SEAT_REQUIRED, true);

type WithViewer = Request & { viewer?: Viewer };

/**
 * Resolves the caller of a match route: the seat its bearer token acts for, or a spectator when it
 * sends none. A token that is sent must be valid for this match, even on public routes.
 */
@Injectable()
export class SeatGuard implements CanActivate {
  constructor(
    private readonly credentials: SeatCredentials,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<WithViewer>();
    // Every /api/matches/{id} route but the lobby's join has this guard, and guards run before pipes:
    // the id's shape is checked here, once, before it reaches SQL.
    const seat = await this.credentials.seatFor(parseMatchId(req.params.id), req.headers.authorization);
    if (seat === null && this.reflector.get<boolean>(SEAT_REQUIRED, context.getHandler())) {
      throw new ProblemException('UNAUTHORIZED', 'This route acts for a seat: send "Authorization: Bearer <seat token>".');
    }
    // A player who holds no seat here watches like anyone else, and cannot act.
    if (seat === NOT_SEATED && this.reflector.get<boolean>(SEAT_REQUIRED, context.getHandler())) {
      throw new ProblemException('FORBIDDEN', 'This player holds no seat of this match.');
    }
    req.viewer = seat === null || seat === NOT_SEATED ? 'spectator' : seat;
    return true;
  }
}

/** The caller resolved by SeatGuard. */
export const CurrentViewer = createParamDecorator((_: unknown, ctx: ExecutionContext): Viewer => {
  return ctx.switchToHttp().getRequest<WithViewer>().viewer ?? 'spectator';
});

/** The seat resolved by SeatGuard on a @SeatRequired route. */
export const CurrentSeat = createParamDecorator((_: unknown, ctx: ExecutionContext): Seat => {
  const viewer = ctx.switchToHttp().getRequest<WithViewer>().viewer;
  if (viewer === undefined || viewer === 'spectator') throw new ProblemException('UNAUTHORIZED', 'A seat token is required.');
  return viewer;
});
