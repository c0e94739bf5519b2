import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { bearerToken } from '../../platform/edge/caller';
import { ProblemException } from '../../platform/problem/problem';
import { looksLikeJwt } from './oidc';
import { PlayerCredentials } from './player-credentials.service';

type WithPlayer = Request & { player?: string };

/**
 * The route acts for a player: a live player token is required (a revoked one is refused at once: no
 * cache), or, with OIDC_ISSUER, a valid JWT of that issuer.
 */
@Injectable()
export class PlayerGuard implements CanActivate {
  constructor(private readonly players: PlayerCredentials) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<WithPlayer>();
    const token = bearerToken(req);
    if (token === undefined || !(/^[A-Za-z0-9_-]{1,200}$/.test(token) || looksLikeJwt(token))) throw new ProblemException('UNAUTHORIZED', 'Send the player token as "Authorization: Bearer <token>".');
    const player = await this.players.playerOf(token);
    if (player === null) throw new ProblemException('UNAUTHORIZED', 'Unknown or revoked player token.');
    req.player = player;
    return true;
  }
}

/** The player resolved by PlayerGuard. */
export const CurrentPlayer = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const player = ctx.switchToHttp().getRequest<WithPlayer>().player;
  if (player === undefined) throw new ProblemException('UNAUTHORIZED', 'A player token is required.');
  return player;
});
