import { ApiProperty } from '@nestjs/swagger';
import { integer } from '../../platform/http/fields';

export class RatingDto {
  @ApiProperty({ type: 'number', example: 25, description: 'OpenSkill mean (Weng-Lin, Plackett–Luce).' }) readonly mu!: number;
  @ApiProperty({ type: 'number', example: 8.333333333333334, description: 'OpenSkill uncertainty.' }) readonly sigma!: number;
  @ApiProperty({ type: 'number', example: 0, description: 'mu − 3·sigma: what the ratings list is ordered by.' }) readonly ordinal!: number;
}

export class RatingEntryDto {
  @ApiProperty({ example: 'bot:strong', description: 'A player id (`pl-<uuid>`), or `bot:<strategy>` for a kind of bot (every seat played with that strategy).' })
  readonly id!: string;
  @ApiProperty({ example: 'Strong bot', description: 'The player\'s current name ("deleted player" once deleted), or the bot kind\'s name ("Strong bot").' })
  readonly name!: string;
  @ApiProperty({ type: RatingDto, description: 'The OpenSkill rating after every rated match so far, in commit order.' }) readonly rating!: RatingDto;
  @ApiProperty(integer('Rated matches that moved this rating.', { minimum: 1, example: 3 })) readonly matches!: number;
}

export class RatingListDto {
  @ApiProperty({ type: [RatingEntryDto], description: 'Best first: ordinal descending, then id (code-point order).' }) readonly items!: RatingEntryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' }) readonly nextCursor!: string | null;
}
