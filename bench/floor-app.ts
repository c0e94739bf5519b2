// The least a command can cost on this stack: Nest on Express, one POST route whose body is a
// class-validator DTO, answering a command-shaped JSON — no game, no database, no logs. `npm run bench`
// measures it beside the api: its rate over the raw append rate is the highest `ratio` the HTTP layer
// alone allows on the machine (docs/performance.md).
import 'reflect-metadata';
import { Body, Controller, HttpCode, Module, Param, Post, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsString, Matches } from 'class-validator';
import type { AddressInfo } from 'node:net';

class PlayDto {
  @IsString()
  @Matches(/^[2-9TJQKA][SHDC]$/)
  card!: string;
}

@Controller('floor/:id')
class FloorController {
  private version = 0;

  @Post('play')
  @HttpCode(200)
  play(@Param('id') id: string, @Body() body: PlayDto): unknown {
    const version = ++this.version;
    return { version, events: [{ version, type: 'CardPlayed', at: new Date().toISOString(), data: { match: id, card: body.card } }] };
  }
}

@Module({ controllers: [FloorController] })
class FloorModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(FloorModule, { logger: false });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  await app.listen(0, '127.0.0.1');
  console.log(`listening on http://localhost:${(app.getHttpServer().address() as AddressInfo).port}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
